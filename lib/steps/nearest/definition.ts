/** The `nearest` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { appendFields, pickedFields } from "@/lib/steps/columns";
import { z } from "zod";
import { ZRef, ZField, ZFieldSpec, ZMaxKm, ACCEPTS_PARAM } from "@/lib/steps/options";
import { defineStep, featureInputs } from "@/lib/steps/define-step";

export const nearest = defineStep({
  type: "nearest",
  label: "Nearest",
  summary: "Copy `fields` of the nearest `target` within `max_km` and the distance in km (nulls when none)",
  category: "spatial",
  options: {
    source: ZRef,
    target: ZRef,
    max_km: ZMaxKm,
    fields: z.array(ZFieldSpec).default([]),
    distance_field: ZField.default("distance_km"),
  },
  params: { max_km: ACCEPTS_PARAM.number },
  columnOptions: { fields: "target" },
  inputs: featureInputs("source", "target"),
  output: "features",
  columns: (step, [src, target]) =>
    appendFields(src, [...pickedFields(target, step.fields ?? []), { name: step.distance_field ?? "distance_km", type: "number" }]),
  docs: {
    options: "`max_km` *param* (> 0, ≤ 20,037); `fields`: field specs of the target; `distance_field` (default `distance_km`)",
    semantics: "Copy `fields` of the nearest target within `max_km` and the distance in km; nulls when none (ties: first target in data order)",
  },
});
