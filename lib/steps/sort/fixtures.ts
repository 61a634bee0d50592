/** Example runs of the `sort` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, table, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, rows } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  { name: "rows descending", step: { type: "sort", source: "t", field: "v", order: "desc" }, inputs: { t: table(rows) }, kind: "table" },
  { name: "features", step: { type: "sort", source: "c", field: "population" }, inputs: { c: fs(cities) }, kind: "layer" },
];
