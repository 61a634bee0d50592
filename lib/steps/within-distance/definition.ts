/** The `within_distance` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { aggregationFields, appendFields } from "@/lib/steps/columns";
import { z } from "zod";
import { ZRef, ZAggregation, ZMaxKm, ACCEPTS_PARAM } from "@/lib/steps/options";
import { defineStep, featureInputs } from "@/lib/steps/define-step";

export const withinDistance = defineStep({
  type: "within_distance",
  label: "Within distance",
  summary: "Aggregate the `target` features within `max_km` of each source feature",
  category: "spatial",
  options: { source: ZRef, target: ZRef, max_km: ZMaxKm, aggregations: z.array(ZAggregation).min(1) },
  params: { max_km: ACCEPTS_PARAM.number },
  columnOptions: { "aggregations.field": "target" },
  inputs: featureInputs("source", "target"),
  output: "features",
  columns: (step, [src, target]) => appendFields(src, aggregationFields(target, step.aggregations)),
  docs: {
    options: "`max_km` *param*; `aggregations` (≥ 1)",
    semantics: "Aggregate the targets within `max_km` (inclusive) of each source feature",
  },
});
