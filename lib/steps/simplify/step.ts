/**
 * The `simplify` step. Douglas-Peucker simplification with `tolerance` in degrees (Turf simplify).
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { simplify as turfSimplify } from "@turf/turf";
import { z } from "zod";
import { mapGeometry } from "@/lib/steps/items";
import { ZRef, ACCEPTS_PARAM } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { sameDemand, sourceExtent } from "@/lib/steps/extent";

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
  // A subset of the vertices: inside the feature's box.
  extent: sourceExtent,
  demand: sameDemand,
  run: (step, ctx) =>
    mapGeometry(ctx, step.source, (f) => turfSimplify(f, { tolerance: step.tolerance, highQuality: step.high_quality, mutate: false }).geometry),
});
