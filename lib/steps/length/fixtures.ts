/** Example runs of the `length` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { box, fs, type TStepFixture } from "@/lib/steps/test-helpers";
import { donut } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  { name: "perimeters in miles", step: { type: "length", source: "d", unit: "mi" }, inputs: { d: fs([donut, box(0, 0, 1, 1)]) }, kind: "layer" },
];
