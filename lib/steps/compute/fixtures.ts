/** Example runs of the `compute` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, table, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, rows } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "features",
    step: { type: "compute", source: "c", field: "double", expression: ["*", ["get", "population"], 2] },
    inputs: { c: fs(cities) },
    kind: "layer",
  },
  {
    name: "rows, overwriting a field",
    step: { type: "compute", source: "t", field: "v", expression: ["concat", ["get", "n"], "!"] },
    inputs: { t: table(rows) },
    kind: "table",
  },
];
