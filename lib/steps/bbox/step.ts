/**
 * The `bbox` step: the bounding box of each feature, or (`mode: "all"`) of all features, as a
 * Polygon (Turf `bbox` + `bboxPolygon`). Boxes are in plain longitude/latitude: a feature
 * split at the antimeridian gets a box from -180 to 180. A point's box is a degenerate
 * polygon whose corners are the point.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { NO_COLUMNS } from "@/lib/steps/columns";
import { bbox as turfBbox, bboxPolygon } from "@turf/turf";
import type { BBox, Polygon } from "geojson";
import { z } from "zod";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { sourceExtent } from "@/lib/steps/extent";
import type { TFeature } from "@/lib/steps/dataset";
import { asFeatures, EVERY, mapGeometry } from "@/lib/steps/items";
import { ACCEPTS_PARAM, ZRef } from "@/lib/steps/options";

const boxPolygon = (b: BBox): Polygon => bboxPolygon(b).geometry;

export const bbox = defineStep({
  type: "bbox",
  label: "Bounding box",
  summary: "Replace geometry by its bounding box (Turf bbox), per feature or one box around all features",
  category: "spatial",
  options: { source: ZRef, mode: z.enum(["each", "all"]).default("each") },
  params: { mode: ACCEPTS_PARAM.string },
  inputs: [{ key: "source", accepts: ACCEPTS.features }],
  output: "features",
  columns: (step, [src]) => (step.mode === "all" ? NO_COLUMNS : src),
  docs: {
    options: "`mode` *param*: `each` (default) | `all`",
    semantics:
      "A Polygon `[[w,s],[e,s],[e,n],[w,n],[w,s]]` in plain lon/lat (Turf `bbox`, `bboxPolygon`). `each`: per feature, properties kept, null geometry stays null. `all`: one feature without properties around every non-null geometry; none when there is none",
  },
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
