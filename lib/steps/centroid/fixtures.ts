/** Example runs of the `centroid` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { box, fs, type TStepFixture } from "@/lib/steps/test-helpers";
import { donut, fiji } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  { name: "centroid", step: { type: "centroid", source: "d" }, inputs: { d: fs([donut, fiji]) }, kind: "layer" },
  { name: "point on feature", step: { type: "centroid", source: "d", method: "point_on_feature" }, inputs: { d: fs([donut, box(0, 0, 1, 1)]) }, kind: "layer" },
];
