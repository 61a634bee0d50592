/** Tests of the `aggregate` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { asPointColumns, pt, runStep, table, R, T } from "@/lib/steps/test-helpers";
import { pointFeatures } from "@/lib/steps/point-columns";
import { rows } from "@/lib/steps/test-fixtures";

/** Every operation over field `v`, and a count of all items. */
const aggs = [
  { op: "count", as: "n" },
  { op: "sum", field: "v", as: "sum" },
  { op: "min", field: "v", as: "min" },
  { op: "max", field: "v", as: "max" },
  { op: "mean", field: "v", as: "mean" },
  { op: "count", field: "v", as: "n_v" },
];

describe("aggregate", () => {
  it("aggregate: one row without groups (also when empty), groups in first-seen order", async () => {
    const one = await runStep({ type: "aggregate", source: "t", aggregations: aggs }, { t: table(rows) }, "table");
    expect(R(one)).toEqual([{ n: 4, sum: 14, min: 2, max: 10, mean: 14 / 3, n_v: 3 }]);
    const empty = await runStep({ type: "aggregate", source: "t", aggregations: aggs }, { t: table([], ["v"]) }, "table");
    expect(R(empty)).toEqual([{ n: 0, sum: 0, min: null, max: null, mean: null, n_v: 0 }]);
    const g = await runStep(
      { type: "aggregate", source: "t", group_by: ["k"], aggregations: [{ op: "sum", field: "v", as: "s" }] },
      { t: table([{ k: "x", v: 1 }, { k: "y", v: 2 }, { k: "x", v: 3 }, { v: 4 }]) },
      "table",
    );
    expect(T(g)).toEqual({
      kind: "rows",
      columns: ["k", "s"],
      rows: [
        { k: "x", s: 4 },
        { k: "y", s: 2 },
        { k: null, s: 4 },
      ],
    });
  });

  it("reads a table and points held by column as it reads records: text numbers, nulls, missing fields and group keys", async () => {
    const records = [{ k: "x", v: "12.5" }, { k: "y", v: null }, { k: "x", v: "abc" }, { v: 4 }, { k: null, v: Infinity }, { k: "y", v: -3 }];
    const features = records.map((p, i) => pt(i, i, { k: undefined, ...p }));
    const held = pointFeatures(asPointColumns(features)!);
    for (const group_by of [[], ["k"], ["k", "missing"]]) {
      const step = { type: "aggregate", source: "t", group_by, aggregations: [...aggs, { op: "sum", field: "missing", as: "none" }] };
      const byRecord = R(await runStep(step, { t: { kind: "features", features } }, "table"));
      expect(R(await runStep(step, { t: held }, "table"))).toEqual(byRecord);
      expect(R(await runStep(step, { t: table(records) }, "table"))).toEqual(byRecord);
    }
  });
});
