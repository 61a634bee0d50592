/** Example runs of the `points_from_rows` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { table, type TStepFixture } from "@/lib/steps/test-helpers";

export const fixtures: TStepFixture[] = [
  {
    name: "numbers and text",
    step: { type: "points_from_rows", source: "t", lon: "lon", lat: "lat" },
    inputs: {
      t: table([
        { id: 1, lon: 8.5, lat: 47.4 },
        { id: 2, lon: "6.1", lat: "46.2" },
        { id: 3, lon: null, lat: 1 },
      ]),
    },
    kind: "layer",
  },
];
