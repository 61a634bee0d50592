/** Example runs of the `select` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, table, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, rows } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "features, renamed",
    step: { type: "select", source: "c", fields: [{ from: "max pop", as: "größe" }, "name"] },
    inputs: { c: fs(cities) },
    kind: "layer",
  },
  { name: "rows", step: { type: "select", source: "t", fields: ["v"] }, inputs: { t: table(rows) }, kind: "table" },
];
