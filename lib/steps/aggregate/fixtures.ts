/** Example runs of the `aggregate` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, table, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, rows } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "groups of rows",
    step: {
      type: "aggregate",
      source: "t",
      group_by: ["n"],
      aggregations: [
        { op: "sum", field: "v", as: "s" },
        { op: "count", as: "k" },
      ],
    },
    inputs: { t: table(rows) },
    kind: "table",
  },
  {
    name: "features, one row",
    step: { type: "aggregate", source: "c", aggregations: [{ op: "mean", field: "population", as: "m" }] },
    inputs: { c: fs(cities) },
    kind: "table",
  },
];
