/** The runner of the `centroid` step; its definition (options, sources, output, docs) is in definition.ts. */
import { centerOfMass, centroid, pointOnFeature } from "@turf/turf";
import { mapGeometry } from "@/lib/steps/items";
import { SAME_BOXES } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { centroidStep } from "@/lib/steps/centroid/definition";

export const centroidRunner = defineRunner(centroidStep, {
  // The point lies in the feature's box.
  ...SAME_BOXES,
  run: (step, ctx) =>
    mapGeometry(ctx, step.source, (f) =>
      step.method === "center_of_mass" ? centerOfMass(f).geometry : step.method === "point_on_feature" ? pointOnFeature(f).geometry : centroid(f).geometry,
    ),
});
