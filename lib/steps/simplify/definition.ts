/**
 * The `simplify` step. Douglas-Peucker simplification with `tolerance` in degrees (Turf simplify).
 * The definition (see lib/steps/define-step.ts: browser-safe, no runner code); the runner is in step.ts.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
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
