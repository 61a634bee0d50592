/** Example runs of the `limit` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, table, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, rows } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  { name: "rows with offset", step: { type: "limit", source: "t", n: 2, offset: 1 }, inputs: { t: table(rows) }, kind: "table" },
  { name: "features", step: { type: "limit", source: "c", n: 1 }, inputs: { c: fs(cities) }, kind: "layer" },
];
