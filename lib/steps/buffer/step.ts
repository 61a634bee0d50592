/** The runner of the `buffer` step; its definition (options, sources, output, docs) is in definition.ts. */
import { buffer as turfBuffer } from "@turf/turf";
import { mapGeometry } from "@/lib/steps/items";
import { splitAtAntimeridian } from "@/lib/geo/antimeridian";
import { defineRunner } from "@/lib/steps/define-step";
import { buffer } from "@/lib/steps/buffer/definition";

export const bufferRunner = defineRunner(buffer, {
  run: (step, ctx) =>
    mapGeometry(ctx, step.source, (f) => {
      const g = turfBuffer(f, step.distance_km, { units: "kilometers", steps: step.steps })?.geometry;
      // Turf wraps longitudes of a buffer that crosses ±180° into one globe-spanning ring.
      return g && (g.type === "Polygon" || g.type === "MultiPolygon") ? splitAtAntimeridian(g) : g;
    }),
});
