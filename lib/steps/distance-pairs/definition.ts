/** The `distance_pairs` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { pickedFields } from "@/lib/steps/columns";
import { z } from "zod";
import { ZRef, ZField, ZFieldSpec, ZMaxKm, ACCEPTS_PARAM } from "@/lib/steps/options";
import { defineStep, featureInputs } from "@/lib/steps/define-step";

export const distancePairs = defineStep({
  type: "distance_pairs",
  label: "Distance pairs",
  summary: "One row per (source, target) pair within `max_km`, nearest first",
  category: "spatial",
  options: {
    source: ZRef,
    target: ZRef,
    max_km: ZMaxKm,
    source_fields: z.array(ZFieldSpec).default([]),
    target_fields: z.array(ZFieldSpec).default([]),
    distance_field: ZField.default("distance_km"),
  },
  params: { max_km: ACCEPTS_PARAM.number },
  columnOptions: { source_fields: "source", target_fields: "target" },
  inputs: featureInputs("source", "target"),
  output: "rows",
  columns: (step, [src, target]) => ({
    fields: [
      ...pickedFields(src, step.source_fields ?? []),
      ...pickedFields(target, step.target_fields ?? []),
      { name: step.distance_field ?? "distance_km", type: "number" },
    ],
    open: false,
  }),
  docs: {
    options: "`max_km` *param*; `source_fields`, `target_fields`: field specs; `distance_field` (default `distance_km`)",
    semantics: "One row per (source, target) pair within `max_km`, per source nearest first",
  },
});
