/** Example runs of the `buffer` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { box, fs, pt, type TStepFixture } from "@/lib/steps/test-helpers";

export const fixtures: TStepFixture[] = [
  {
    name: "points and polygons",
    step: { type: "buffer", source: "c", distance_km: 10, steps: 4 },
    inputs: { c: fs([pt(0, 0, { id: 1 }), box(0, 0, 1, 1), pt(179.99, 0)]) },
    kind: "layer",
  },
];
