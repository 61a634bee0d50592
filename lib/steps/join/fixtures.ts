/** Example runs of the `join` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, table, type TStepFixture } from "@/lib/steps/test-helpers";
import { cities, rows } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [
  {
    name: "rows to rows",
    step: { type: "join", left: "l", right: "r", left_field: "n", right_field: "key", how: "inner" },
    inputs: {
      l: table(rows),
      r: table([
        { key: "a", label: "A" },
        { key: "c", label: "C" },
      ]),
    },
    kind: "table",
  },
  {
    name: "features to rows",
    step: { type: "join", left: "c", right: "r", left_field: "name", right_field: "key" },
    inputs: { c: fs(cities), r: table([{ key: "B", label: "b" }]) },
    kind: "layer",
  },
];
