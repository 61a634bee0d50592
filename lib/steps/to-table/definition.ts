/** The `to_table` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
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
