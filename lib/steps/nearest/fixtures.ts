/** Example runs of the `nearest` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, pt, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "nearest city",
    step: { type: "nearest", source: "p", target: "c", max_km: 500, fields: ["name"] },
    inputs: { p: fs([pt(0, 0, { id: 1 }), pt(90, 0, { id: 2 })]), c: fs(cities) },
    kind: "layer",
  },
];
