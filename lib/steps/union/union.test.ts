/** Tests of the `union` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { validateFlowVersion } from "@/lib/flows/definition";
import { fs, pt, runStep, table, F, T } from "@/lib/steps/test-helpers";

describe("union", () => {
  it("concatenates tables (columns: the union, in first-seen order) and layers (features in source order)", async () => {
    const t = await runStep(
      { type: "union", sources: ["a", "b", "c"] },
      { a: table([{ x: 1, y: 2 }]), b: table([{ z: 3, x: 4 }]), c: table([], ["w"]) },
      "table",
    );
    expect(T(t)).toEqual({
      kind: "rows",
      columns: ["x", "y", "z", "w"],
      rows: [
        { x: 1, y: 2 },
        { z: 3, x: 4 },
      ],
    });
    const l = await runStep({ type: "union", sources: ["a", "b"] }, { a: fs([pt(0, 0, { i: 1 })]), b: fs([pt(1, 1, { i: 2 }), pt(2, 2, { i: 3 })]) }, "layer");
    expect(F(l).map((f) => f.properties.i)).toEqual([1, 2, 3]);
  });

  it("refuses sources of different kinds, naming the odd one", () => {
    const v = validateFlowVersion({
      inputs: [
        { name: "a", kind: "layer" },
        { name: "b", kind: "table" },
      ],
      steps: [{ id: "u", type: "union", sources: ["a", "b"] }],
      results: [{ key: "r", kind: "layer", from: "u" }],
    });
    expect(v).toMatchObject({ ok: false, errors: [{ field: "/steps/0/sources/1", code: "kind_mismatch" }] });
  });
});
