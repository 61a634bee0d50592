/** Example runs of the `dissolve` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { box, fs, type TStepFixture } from "@/lib/steps/test-helpers";
import { donut } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "per field",
    step: { type: "dissolve", source: "d", field: "k" },
    inputs: { d: fs([box(0, 0, 1, 1, { k: "a" }), box(1, 0, 2, 1, { k: "a" }), box(5, 5, 6, 6, { k: "b" })]) },
    kind: "layer",
  },
  { name: "all in one", step: { type: "dissolve", source: "d" }, inputs: { d: fs([donut, box(0, 0, 1, 1)]) }, kind: "layer" },
];
