/** Tests of the `join` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { fs, pt, runStep, table, F, R, P, T } from "@/lib/steps/test-helpers";
import { nullGeom } from "@/lib/steps/test-fixtures";

describe("join", () => {
  it("join (left and inner) and union", async () => {
    const left = table([
      { code: "CH", v: 1 },
      { code: "XX", v: 2 },
    ]);
    const right = table([{ iso: "CH", label: "Schweiz" }]);
    expect(T(await runStep({ type: "join", left: "l", right: "r", left_field: "code", right_field: "iso" }, { l: left, r: right }, "table"))).toEqual({
      kind: "rows",
      columns: ["code", "v", "label"],
      rows: [
        { code: "CH", v: 1, label: "Schweiz" },
        { code: "XX", v: 2, label: null },
      ],
    });
    expect(
      R(await runStep({ type: "join", left: "l", right: "r", left_field: "code", right_field: "iso", how: "inner" }, { l: left, r: right }, "table")),
    ).toHaveLength(1);
    const u = await runStep({ type: "union", sources: ["a", "b"] }, { a: table([{ x: 1 }]), b: table([{ y: 2 }]) }, "table");
    expect(T(u)).toEqual({ kind: "rows", columns: ["x", "y"], rows: [{ x: 1 }, { y: 2 }] });
  });
});

describe("join edge cases: attribute steps with unicode, spaces, nulls and empty input", () => {
  it("join matches unicode keys and keeps unmatched rowsEdge; union appends empty inputs", async () => {
    const left = table([
      { "Land code": "CH", n: 1 },
      { "Land code": "ÅL", n: 2 },
      { "Land code": null, n: 3 },
    ]);
    const right = table([
      { iso: "ÅL", "Name ✓": "Åland" },
      { iso: "ÅL", "Name ✓": "second match ignored" },
    ]);
    const j = await runStep({ type: "join", left: "l", right: "r", left_field: "Land code", right_field: "iso" }, { l: left, r: right }, "table");
    expect(R(j)).toEqual([
      { "Land code": "CH", n: 1, "Name ✓": null },
      { "Land code": "ÅL", n: 2, "Name ✓": "Åland" },
      { "Land code": null, n: 3, "Name ✓": null },
    ]);
    const lj = await runStep(
      { type: "join", left: "c", right: "r", left_field: "Land code", right_field: "iso", how: "inner" },
      { c: fs([pt(0, 0, { "Land code": "ÅL" }), nullGeom({ "Land code": "CH" })]), r: right },
      "layer",
    );
    expect(P(lj)).toEqual([{ "Land code": "ÅL", "Name ✓": "Åland" }]);
    const u = await runStep({ type: "union", sources: ["a", "b"] }, { a: fs([]), b: fs([nullGeom({ x: 1 })]) }, "layer");
    expect(P(u)).toEqual([{ x: 1 }]);
    const uo = await runStep({ type: "union", sources: ["a", "b"] }, { a: fs([pt(1, 1)]), b: null }, "layer", { optional: ["b"] });
    expect(F(uo)).toHaveLength(1);
  });
});
