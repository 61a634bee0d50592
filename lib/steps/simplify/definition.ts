/** The `simplify` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { z } from "zod";
import { ZRef, ACCEPTS_PARAM } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const simplify = defineStep({
  type: "simplify",
  label: "Simplify",
  summary: "Douglas-Peucker simplification with `tolerance` in degrees (Turf simplify)",
  category: "spatial",
  options: { source: ZRef, tolerance: z.number().min(0), high_quality: z.boolean().default(false) },
  params: { tolerance: ACCEPTS_PARAM.number, high_quality: ACCEPTS_PARAM.boolean },
  inputs: [{ key: "source", accepts: ACCEPTS.features }],
  output: "features",
  docs: {
    options: "`tolerance` *param* (degrees, ≥ 0); `high_quality` *param* (boolean)",
    semantics: "Douglas–Peucker (Turf `simplify`); holes kept",
  },
});
