/** The `clip` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { ZRef } from "@/lib/steps/options";
import { defineStep, featureInputs } from "@/lib/steps/define-step";

export const clip = defineStep({
  type: "clip",
  label: "Clip",
  summary: "Cut polygons to `by` (Turf intersect); points outside are dropped, lines are kept whole when they intersect",
  category: "spatial",
  options: { source: ZRef, by: ZRef },
  inputs: featureInputs("source", "by"),
  output: "features",
  docs: {
    options: "",
    semantics:
      "Cut polygons to the union of `by`'s polygons (Turf `intersect`); points outside are dropped; lines that intersect are kept whole; null geometry is dropped. Omitted optional `by`: unchanged",
  },
});
