/** Example runs of the `to_table` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  { name: "all properties", step: { type: "to_table", source: "c" }, inputs: { c: fs(cities) }, kind: "table" },
  { name: "columns", step: { type: "to_table", source: "c", columns: ["name", { from: "population", as: "pop" }] }, inputs: { c: fs(cities) }, kind: "table" },
];
