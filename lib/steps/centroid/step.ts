/**
 * The `centroid` step. Replace geometry by a point (Turf centroid / centerOfMass / pointOnFeature).
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { centerOfMass, centroid, pointOnFeature } from "@turf/turf";
import { z } from "zod";
import { mapGeometry } from "@/lib/steps/items";
import { ZRef, ACCEPTS_PARAM } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { sameDemand, sourceExtent } from "@/lib/steps/extent";

export const centroidStep = defineStep({
  type: "centroid",
  label: "Centroid",
  summary: "Replace geometry by a point (Turf centroid / centerOfMass / pointOnFeature)",
  category: "spatial",
  options: { source: ZRef, method: z.enum(["centroid", "center_of_mass", "point_on_feature"]).default("centroid") },
  params: { method: ACCEPTS_PARAM.string },
  inputs: [{ key: "source", accepts: ACCEPTS.features }],
  output: "features",
  docs: {
    options: "`method` *param*: `centroid` (default, mean of vertices) | `center_of_mass` | `point_on_feature`",
    semantics: "Replace geometry by a point",
  },
  // The point lies in the feature's box.
  extent: sourceExtent,
  demand: sameDemand,
  run: (step, ctx) =>
    mapGeometry(ctx, step.source, (f) =>
      step.method === "center_of_mass" ? centerOfMass(f).geometry : step.method === "point_on_feature" ? pointOnFeature(f).geometry : centroid(f).geometry,
    ),
});
