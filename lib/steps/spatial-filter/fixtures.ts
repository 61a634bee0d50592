/** Example runs of the `spatial_filter` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { box, fs, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, donut, fiji } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "within a MultiPolygon with a hole",
    step: { type: "spatial_filter", source: "c", by: "d", predicate: "within" },
    inputs: { c: fs(cities), d: fs([donut]) },
    kind: "layer",
  },
  {
    name: "polygons intersecting",
    step: { type: "spatial_filter", source: "p", by: "d" },
    inputs: { p: fs([box(0, 0, 1, 1), fiji]), d: fs([donut, fiji]) },
    kind: "layer",
  },
];
