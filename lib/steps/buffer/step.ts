/**
 * The `buffer` step. Geodesic buffer of `distance_km` (Turf buffer).
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { buffer as turfBuffer } from "@turf/turf";
import { z } from "zod";
import { mapGeometry } from "@/lib/steps/items";
import { splitAtAntimeridian } from "@/lib/geo/antimeridian";
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
  run: (step, ctx) =>
    mapGeometry(ctx, step.source, (f) => {
      const g = turfBuffer(f, step.distance_km, { units: "kilometers", steps: step.steps })?.geometry;
      // Turf wraps longitudes of a buffer that crosses ±180° into one globe-spanning ring.
      return g && (g.type === "Polygon" || g.type === "MultiPolygon") ? splitAtAntimeridian(g) : g;
    }),
});
