/** Example runs of the `filter` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, table, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, rows } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "features by a parameter",
    step: { type: "filter", source: "c", where: [">=", ["get", "population"], ["var", "min"]] },
    inputs: { c: fs(cities) },
    kind: "layer",
    opts: { parameters: [{ name: "min", type: "integer", default: 0 }], params: { min: 100 } },
  },
  { name: "rows", step: { type: "filter", source: "t", where: ["==", ["get", "n"], "a"] }, inputs: { t: table(rows) }, kind: "table" },
];
