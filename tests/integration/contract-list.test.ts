/**
 * Contract of `GET /runs` (beyond the spec): the calling consumer's runs of this API,
 * newest first, `?state=` filter, opaque cursor paging with `limit` 1..100 (default 20),
 * `{runs, next_cursor}` plus `Link: <...>; rel="next"`; 422 for bad query values.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, http, OTHER_KEY, resetRuns, sql } from "./helpers";
import { expectProblem, ZURICH_AREA as AREA } from "./contract-helpers";

const CITIES = apiPath("cities-in-area");
const ids: string[] = []; // newest first

beforeAll(async () => {
  await resetRuns();
  for (let i = 0; i < 5; i++) {
    const r = await http("POST", `${CITIES}/runs`, {
      body: { inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } }, parameters: { min_population: i }, wait_seconds: 30 },
    });
    expect(r.status, r.text).toBe(200);
    ids.unshift(r.body.run_id);
  }
  // One failed run (set directly) and two runs of the other consumer / another API.
  await sql().query(`UPDATE run SET state = 'failed', error = '{"code":"step_failed","message":"x"}' WHERE id = $1`, [ids[2]]);
  await http("POST", `${CITIES}/runs`, { key: OTHER_KEY, body: { inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } }, wait_seconds: 30 } });
  await http("POST", `${apiPath("country-stats")}/runs`, {
    body: { inputs: { cities: { layer_id: "world-cities" }, countries: { layer_id: "world-countries" } } },
  });
});

describe("GET /runs", () => {
  it("lists the caller's runs of this API newest first, as run documents without results", async () => {
    const r = await http("GET", `${CITIES}/runs`);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.body.runs.map((x: any) => x.run_id)).toEqual(ids);
    expect(r.body.next_cursor).toBeNull();
    expect(r.headers.get("link")).toBeNull();
    for (const run of r.body.runs) {
      expect(run).toMatchObject({ api: "cities-in-area", links: { self: `${CITIES}/runs/${run.run_id}` } });
      expect(run.results).toBeUndefined();
    }
    expect(r.body.runs.find((x: any) => x.run_id === ids[2]).error).toMatchObject({ code: "step_failed" });
  });

  it("pages with an opaque cursor and a Link header, without gaps or repeats", async () => {
    const seen: string[] = [];
    let url = `${CITIES}/runs?limit=2`;
    let pages = 0;
    while (url) {
      const r = await http("GET", url);
      expect(r.status, r.text).toBe(200);
      pages++;
      expect(r.body.runs.length).toBeLessThanOrEqual(2);
      seen.push(...r.body.runs.map((x: any) => x.run_id));
      const link = r.headers.get("link");
      if (r.body.next_cursor) {
        expect(link).toBe(`<${CITIES}/runs?limit=2&cursor=${encodeURIComponent(r.body.next_cursor)}>; rel="next"`);
        url = /^<([^>]+)>/.exec(link!)![1]!;
      } else {
        expect(link).toBeNull();
        url = "";
      }
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
  });

  it("filters by state, also across pages", async () => {
    const failed = await http("GET", `${CITIES}/runs?state=failed`);
    expect(failed.body.runs.map((x: any) => x.run_id)).toEqual([ids[2]]);
    const completed = await http("GET", `${CITIES}/runs?state=completed&limit=3`);
    expect(completed.body.runs.map((x: any) => x.run_id)).toEqual(ids.filter((_, i) => i !== 2).slice(0, 3));
    expect(completed.headers.get("link")).toContain("state=completed");
    const next = await http("GET", /^<([^>]+)>/.exec(completed.headers.get("link")!)![1]!);
    expect(next.body.runs.map((x: any) => x.run_id)).toEqual(ids.filter((_, i) => i !== 2).slice(3));
    expect((await http("GET", `${CITIES}/runs?state=cancelled`)).body).toEqual({ runs: [], next_cursor: null });
  });

  it("shows another consumer only its own runs", async () => {
    const r = await http("GET", `${CITIES}/runs`, { key: OTHER_KEY });
    expect(r.body.runs).toHaveLength(1);
    expect(ids).not.toContain(r.body.runs[0].run_id);
  });

  it("answers 422 naming a bad state, limit or cursor", async () => {
    const cases: [string, string][] = [
      ["state=done", "/query/state"],
      ["limit=0", "/query/limit"],
      ["limit=101", "/query/limit"],
      ["limit=abc", "/query/limit"],
      ["limit=2.5", "/query/limit"],
      ["cursor=garbage", "/query/cursor"],
      [`cursor=${Buffer.from('{"c":"x","i":"y"}').toString("base64url")}`, "/query/cursor"],
    ];
    for (const [q, field] of cases) {
      const body = expectProblem(await http("GET", `${CITIES}/runs?${q}`), 422, "validation_failed");
      expect(
        body.errors.map((e: any) => e.field),
        q,
      ).toEqual([field]);
    }
    const both = expectProblem(await http("GET", `${CITIES}/runs?state=x&limit=0`), 422);
    expect(both.errors.map((e: any) => e.field).sort()).toEqual(["/query/limit", "/query/state"]);
  });
});
