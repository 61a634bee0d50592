/** Example runs of the `rank` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, table, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, rows } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  { name: "rows", step: { type: "rank", source: "t" }, inputs: { t: table(rows) }, kind: "table" },
  { name: "features", step: { type: "rank", source: "c", field: "position" }, inputs: { c: fs(cities) }, kind: "layer" },
];
