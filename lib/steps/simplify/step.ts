/** The runner of the `simplify` step; its definition (options, sources, output, docs) is in definition.ts. */
import { simplify as turfSimplify } from "@turf/turf";
import { mapGeometry } from "@/lib/steps/items";
import { SAME_BOXES } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { simplify } from "@/lib/steps/simplify/definition";

export const simplifyRunner = defineRunner(simplify, {
  // A subset of the vertices: inside the feature's box.
  ...SAME_BOXES,
  run: (step, ctx) =>
    mapGeometry(ctx, step.source, (f) => turfSimplify(f, { tolerance: step.tolerance, highQuality: step.high_quality, mutate: false }).geometry),
});
