/** The `aggregate` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { aggregationFields, typeOf } from "@/lib/steps/columns";
import { z } from "zod";
import { ZRef, ZField, ZAggregation } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const aggregate = defineStep({
  type: "aggregate",
  label: "Aggregate",
  summary: "Group by `group_by` (none = one row) and compute `aggregations`",
  category: "attribute",
  options: { source: ZRef, group_by: z.array(ZField).default([]), aggregations: z.array(ZAggregation).min(1) },
  columnOptions: { group_by: "source", "aggregations.field": "source" },
  inputs: [{ key: "source", accepts: ACCEPTS.any }],
  output: "rows",
  columns: (step, [src]) => ({
    fields: [...step.group_by.map((name) => ({ name, type: typeOf(src, name) })), ...aggregationFields(src, step.aggregations)],
    open: false,
  }),
  docs: {
    options: "`group_by`: fields (default none = one row); `aggregations` (≥ 1)",
    semantics: "One row per group (first-seen order), group fields then aggregates; with no groups and no input one row of empty aggregates",
  },
});
