/**
 * The `union` step. Concatenate the sources (all of one kind), like SQL UNION ALL.
 * The definition (see lib/steps/define-step.ts: browser-safe, no runner code); the runner is in step.ts.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
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
