/** Example runs of the `within_distance` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, pt, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "count and sum",
    step: {
      type: "within_distance",
      source: "p",
      target: "c",
      max_km: 200,
      aggregations: [
        { op: "count", as: "n" },
        { op: "sum", field: "population", as: "pop" },
      ],
    },
    inputs: { p: fs([pt(0, 0, { id: 1 })]), c: fs(cities) },
    kind: "layer",
  },
];
