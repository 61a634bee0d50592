/** Example runs of the `spatial_join` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { box, fs, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, donut } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "points in polygons",
    step: {
      type: "spatial_join",
      points: "c",
      polygons: "d",
      aggregations: [
        { op: "count", as: "n" },
        { op: "sum", field: "population", as: "pop" },
      ],
    },
    inputs: { c: fs(cities), d: fs([donut, box(0, 0, 1, 1)]) },
    kind: "layer",
  },
];
