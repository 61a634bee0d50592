/** The `union` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { unionColumns } from "@/lib/steps/columns";
import { z } from "zod";
import { ZRef } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const union = defineStep({
  type: "union",
  label: "Union",
  summary: "Concatenate the sources (all of one kind), like SQL UNION ALL",
  category: "attribute",
  options: { sources: z.array(ZRef).min(2) },
  inputs: [{ key: "sources", accepts: ACCEPTS.any, many: true }],
  output: "same",
  columns: (_step, sources) => unionColumns(sources),
  docs: {
    sources: "`sources` (≥ 2, all features or all rows) → same",
    options: "",
    semantics: "Concatenate (SQL UNION ALL); table columns are the union in order",
  },
});
