/** Tests of the `compute` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { fs, pt, runStep, table, P, T } from "@/lib/steps/test-helpers";

describe("compute", () => {
  it("compute adds a field and does not mutate the source", async () => {
    const src = [pt(0, 0, { a: 2 }), pt(0, 0, { a: null })];
    const out = await runStep({ type: "compute", source: "c", field: "double", expression: ["*", ["get", "a"], 2] }, { c: fs(src) }, "layer");
    expect(P(out)).toEqual([
      { a: 2, double: 4 },
      { a: null, double: null },
    ]);
    expect(src[0].properties).toEqual({ a: 2 });
    const t = await runStep({ type: "compute", source: "t", field: "s", expression: ["concat", ["get", "n"], "!"] }, { t: table([{ n: "x" }]) }, "table");
    expect(T(t)).toEqual({ kind: "rows", columns: ["n", "s"], rows: [{ n: "x", s: "x!" }] });
  });
});
