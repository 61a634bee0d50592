/** Example runs of the `simplify` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, type TStepFixture } from "@/lib/steps/test-helpers";
import { donut, fiji } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  { name: "polygons", step: { type: "simplify", source: "d", tolerance: 0.5, high_quality: true }, inputs: { d: fs([donut, fiji]) }, kind: "layer" },
];
