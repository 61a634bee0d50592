/**
 * Caller input that Postgres cannot store (issue "No request can take the service down",
 * item 9) is refused at the door with the field named, over HTTP and MCP alike, instead of a
 * 500 from deep inside a query: a NUL character or an unpaired surrogate in any string or
 * key (422), JSON nested deeper than 64 levels (400). lib/errors/unstorable.ts.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { apiPath, http, resetRuns, runCount } from "./helpers";
import { expectProblem, ZURICH_AREA as AREA } from "./contract-helpers";
import { textOf, withClient } from "./mcp-helpers";

const CITIES = apiPath("cities-in-area");
const BODY = { inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } } };

beforeEach(resetRuns);
afterAll(async () => {
  const { db } = await import("@/lib/db");
  await db.$disconnect();
});

function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

describe("POST /runs", () => {
  it("answers 422 naming a layer id with a NUL character or an unpaired surrogate", async () => {
    for (const [id, code] of [
      ["world\u0000cities", "nul_character"],
      ["world\uD800cities", "unpaired_surrogate"],
    ]) {
      const r = await http("POST", `${CITIES}/runs`, { body: { inputs: { ...BODY.inputs, cities: { layer_id: id } } } });
      const problem = expectProblem(r, 422);
      expect(problem.errors).toEqual([expect.objectContaining({ field: "/inputs/cities/layer_id", code })]);
    }
    expect(await runCount()).toBe(0);
  });
  it("answers 422 naming a key with a NUL character, and 400 for nesting 5,000 deep", async () => {
    const key = await http("POST", `${CITIES}/runs`, { body: { ...BODY, parameters: { "min\u0000population": 1 } } });
    expect(expectProblem(key, 422).errors[0]).toMatchObject({ field: "/parameters/min\u0000population", code: "nul_character" });
    // Written as text: 5,000 levels are more than JSON.stringify of this process takes.
    const rawBody = JSON.stringify({ ...BODY, parameters: { min_population: "DEEP" } }).replace('"DEEP"', `${"[".repeat(5_000)}1${"]".repeat(5_000)}`);
    const deep = await http("POST", `${CITIES}/runs`, { rawBody, headers: { "content-type": "application/json" } });
    expectProblem(deep, 400);
    expect(await runCount()).toBe(0);
  });
});

describe("MCP tool call", () => {
  it("answers a tool error naming the argument, and starts nothing", async () => {
    const args = { cities: { layer_id: "world\u0000cities" }, area: { area: AREA } };
    const result = await withClient({}, (c) => c.callTool({ name: "cities_in_area", arguments: args }));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/\/cities\/layer_id: .*\(nul_character\)/);
    const deep = await withClient({}, (c) =>
      // 500 levels: more than the MCP client's own serializer takes at 5,000, far past the limit of 64.
      c.callTool({ name: "cities_in_area", arguments: { ...args, cities: { layer_id: "world-cities" }, extra: nested(500) } }),
    );
    expect(deep.isError).toBe(true);
    expect(textOf(deep)).toMatch(/64 levels/);
    expect(await runCount()).toBe(0);
  });
});
