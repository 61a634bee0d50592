/** Example runs of the `bbox` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { box, fs, pt, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, donut, fiji } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  { name: "each feature", step: { type: "bbox", source: "d" }, inputs: { d: fs([donut, fiji, pt(1, 2), box(0, 0, 1, 1)]) }, kind: "layer" },
  { name: "all features, with null geometry", step: { type: "bbox", source: "c", mode: "all" }, inputs: { c: fs(cities) }, kind: "layer" },
];
