/** The `centroid` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
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
