import { beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "@/lib/errors";

let readJsonBody: (req: Request) => Promise<unknown>;
beforeAll(async () => {
  // env() only parses the variables; nothing connects.
  process.env.DATABASE_URL ??= "postgres://unused@localhost/unused";
  ({ readJsonBody } = await import("./read-json-body"));
});

const post = (body: string) => new Request("http://localhost/runs", { method: "POST", headers: { "content-type": "application/json" }, body });
const refusal = (body: string) =>
  readJsonBody(post(body)).then(
    () => null,
    (e: unknown) => e,
  );

describe("readJsonBody", () => {
  it("refuses a NUL character or an unpaired surrogate in any string or key, naming it (422)", async () => {
    expect(await refusal('{"inputs":{"places":{"rows":[{"name":"a\\u0000b"}]}}}')).toMatchObject({
      code: "validation_failed",
      errors: [{ field: "/inputs/places/rows/0/name", code: "nul_character" }],
    });
    expect(await refusal('{"inputs":{"cities":{"geojson":{"features":[{"properties":{"\\ud800":1}}]}}}}')).toMatchObject({
      code: "validation_failed",
      errors: [{ field: "/inputs/cities/geojson/features/0/properties/\uD800", code: "unpaired_surrogate" }],
    });
  });
  it("refuses JSON nested deeper than the limit (400) before parsing it, and accepts the limit", async () => {
    const depth = (n: number) => "[".repeat(n) + "]".repeat(n);
    expect(await refusal(`{"a":${depth(MAX_JSON_DEPTH - 1)}}`)).toBeNull();
    expect(await refusal(`{"a":${depth(MAX_JSON_DEPTH)}}`)).toMatchObject({ code: "bad_request" });
    expect(await refusal(depth(5_000))).toMatchObject({ code: "bad_request" });
    // Brackets inside strings do not count.
    expect(await refusal(JSON.stringify({ s: "[".repeat(1_000) + '\\"{' }))).toBeNull();
  });
  it("still reads well-formed text, including surrogate pairs", async () => {
    expect(await readJsonBody(post('{"name":"Z\\u00fcrich \\ud83d\\uddfa"}'))).toEqual({ name: "Zürich 🗺" });
  });
});
