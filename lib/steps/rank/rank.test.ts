/** Tests of the `rank` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { fs, pt, runStep, table, R, T } from "@/lib/steps/test-helpers";
import { nullGeom, rowsEdge } from "@/lib/steps/test-fixtures";
import type { TTable } from "@/lib/steps/dataset";

describe("rank edge cases: attribute steps with unicode, spaces, nulls and empty input", () => {
  it("rank, to_table and aggregate keep unicode keys; null group keys form their own group", async () => {
    const r = await runStep({ type: "rank", source: "t", field: "Platz Nr." }, { t: table(rowsEdge) }, "table");
    expect((r as TTable).columns[0]).toBe("Platz Nr.");
    const t = await runStep({ type: "to_table", source: "c" }, { c: fs([pt(0, 0, { "a b": 1 }), nullGeom({ ü: 2 })]) }, "table");
    expect(T(t)).toEqual({ kind: "rows", columns: ["a b", "ü"], rows: [{ "a b": 1 }, { ü: 2 }] });
    expect(T(await runStep({ type: "to_table", source: "c" }, { c: fs([]) }, "table"))).toEqual({ kind: "rows", columns: [], rows: [] });
    const g = await runStep(
      {
        type: "aggregate",
        source: "t",
        group_by: ["ключ"],
        aggregations: [
          { op: "sum", field: "Einw. gesamt", as: "Σ" },
          { op: "count", as: "n" },
        ],
      },
      { t: table(rowsEdge) },
      "table",
    );
    expect(R(g)).toEqual([
      { ключ: "a b", Σ: 400, n: 2 },
      { ключ: null, Σ: 9000, n: 1 },
    ]);
    const empty = await runStep(
      { type: "aggregate", source: "t", group_by: ["k"], aggregations: [{ op: "count", as: "n" }] },
      { t: table([], ["k"]) },
      "table",
    );
    expect(R(empty)).toEqual([]); // no groups: no rowsEdge (without group_by there is one row, see steps.test.ts)
  });
});
