/** The runner of the `bbox` step; its definition (options, sources, output, docs) is in definition.ts. */
import { bbox as turfBbox, bboxPolygon } from "@turf/turf";
import type { BBox, Polygon } from "geojson";
import { sourceExtent } from "@/lib/steps/extent";
import type { TFeature } from "@/lib/steps/dataset";
import { asFeatures, EVERY, mapGeometry } from "@/lib/steps/items";
import { defineRunner } from "@/lib/steps/define-step";
import { bbox } from "@/lib/steps/bbox/definition";

const boxPolygon = (b: BBox): Polygon => bboxPolygon(b).geometry;

export const bboxRunner = defineRunner(bbox, {
  // `each`: a feature's box has the feature's box; `all` needs every feature.
  extent: sourceExtent,
  demand: (step, box) => (step.mode === "each" ? { source: box } : {}),
  run: async (step, ctx) => {
    if (step.mode === "each") return mapGeometry(ctx, step.source, (f) => boxPolygon(turfBbox(f)));
    const fs = asFeatures(ctx.get(step.source)).features;
    let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < fs.length; i++) {
      if (i % EVERY === 0) await ctx.checkpoint();
      const g = fs[i].geometry;
      if (!g) continue;
      const [x0, y0, x1, y1] = turfBbox(g);
      [w, s, e, n] = [Math.min(w, x0), Math.min(s, y0), Math.max(e, x1), Math.max(n, y1)];
    }
    const features: TFeature[] = w === Infinity ? [] : [{ type: "Feature", geometry: boxPolygon([w, s, e, n]), properties: {} }];
    return { kind: "features", features };
  },
});
