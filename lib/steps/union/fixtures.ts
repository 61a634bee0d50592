/** Example runs of the `union` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, table, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, donut, rows } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  { name: "rows", step: { type: "union", sources: ["a", "b"] }, inputs: { a: table(rows), b: table([{ x: 1 }]) }, kind: "table" },
  { name: "features", step: { type: "union", sources: ["a", "b"] }, inputs: { a: fs(cities), b: fs([donut]) }, kind: "layer" },
];
