/** The `buffer` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { z } from "zod";
import { ZRef, ACCEPTS_PARAM } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const buffer = defineStep({
  type: "buffer",
  label: "Buffer",
  summary: "Geodesic buffer of `distance_km` (Turf buffer)",
  category: "spatial",
  options: { source: ZRef, distance_km: z.number().min(-20_000).max(20_000), steps: z.number().int().min(1).max(64).default(8) },
  params: { distance_km: ACCEPTS_PARAM.number, steps: ACCEPTS_PARAM.integer },
  inputs: [{ key: "source", accepts: ACCEPTS.features }],
  output: "features",
  docs: {
    options: "`distance_km` *param* (−20,000..20,000); `steps` *param* (1..64, default 8, segments per quarter circle)",
    semantics: "Geodesic buffer (Turf `buffer`); a buffer that crosses the antimeridian is split into a MultiPolygon",
  },
});
