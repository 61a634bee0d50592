/** Example runs of the `distance_pairs` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, pt, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "pairs",
    step: { type: "distance_pairs", source: "p", target: "c", max_km: 300, source_fields: ["id"], target_fields: ["name"] },
    inputs: { p: fs([pt(0, 0, { id: 1 }), pt(1, 1, { id: 2 })]), c: fs(cities) },
    kind: "table",
  },
];
