/**
 * The `centroid` step. Replace geometry by a point (Turf centroid / centerOfMass / pointOnFeature).
 * The definition (see lib/steps/define-step.ts: browser-safe, no runner code); the runner is in step.ts.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { z } from "zod";
import { ZRef, ACCEPTS_PARAM } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

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
});
