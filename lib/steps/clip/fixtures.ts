/** Example runs of the `clip` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { box, fs, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, donut } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "points and polygons",
    step: { type: "clip", source: "c", by: "d" },
    inputs: { c: fs([...cities, box(0.5, 0.5, 2, 2)]), d: fs([donut]) },
    kind: "layer",
  },
];
