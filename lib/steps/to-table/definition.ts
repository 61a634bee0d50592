/**
 * The `to_table` step. Features to rows without geometry; `columns` fixes and renames the columns.
 * Browser-safe definition (lib/steps/define-step.ts; runner: step.ts); `docs` below makes its row of docs/flow-format.md.
 */
import { pickedFields } from "@/lib/steps/columns";
import { z } from "zod";
import { ZRef, ZFieldSpec } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const toTable = defineStep({
  type: "to_table",
  label: "To table",
  summary: "Features to rows without geometry; `columns` fixes and renames the columns",
  category: "attribute",
  options: { source: ZRef, columns: z.array(ZFieldSpec).optional() },
  columnOptions: { columns: "source" },
  inputs: [{ key: "source", accepts: ACCEPTS.features }],
  output: "rows",
  columns: (step, [src]) => (step.columns ? { fields: pickedFields(src, step.columns), open: false } : src),
  docs: {
    options: "`columns`: field specs, optional",
    semantics: "Drop geometry; without `columns` every property becomes a column (first-seen order)",
  },
});
