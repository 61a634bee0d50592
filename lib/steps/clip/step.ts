/** The runner of the `clip` step; its definition (options, sources, output, docs) is in definition.ts. */
import { bbox as turfBbox, booleanIntersects, featureCollection, intersect, union as turfUnion } from "@turf/turf";
import type { Feature, MultiPolygon, Polygon } from "geojson";
import { asFeatures, withGeometry } from "@/lib/steps/items";
import { isPolygonal } from "@/lib/steps/geometry";
import { pointInPolygonal } from "@/lib/geo/point-in-polygon";
import type { TFeature } from "@/lib/steps/dataset";
import { smallerBox, sourceExtent } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { clip } from "@/lib/steps/clip/definition";

export const clipRunner = defineRunner(clip, {
  // A kept feature meets the union of `by`'s polygons, and its cut lies inside its own box. All
  // of `by`: the union of fewer polygons may differ in its last digits.
  extent: sourceExtent,
  demand: (step, box, sources) => ({ source: sources.data(step.by) === null ? box : smallerBox(box, sources.extent(step.by)) }),
  batch: {
    source: "source",
    start: async (step, ctx) => {
      const byDs = ctx.get(step.by);
      if (byDs === null) return async (ds) => ({ kind: "features", features: asFeatures(ds).features });
      const polys = asFeatures(byDs, "`by` source").features.filter((f) => isPolygonal(f.geometry)) as Feature<Polygon | MultiPolygon>[];
      const clipper = polys.length === 0 ? null : polys.length === 1 ? polys[0] : turfUnion(featureCollection(polys));
      if (!clipper) return async () => ({ kind: "features", features: [] });
      const [cx0, cy0, cx1, cy1] = turfBbox(clipper);
      return async (ds) => {
        const source = asFeatures(ds).features;
        const out: TFeature[] = [];
        for (let i = 0; i < source.length; i++) {
          await ctx.checkpoint(); // one geometry operation can take milliseconds
          const f = source[i];
          const g = f.geometry;
          if (!g) continue;
          const [x0, y0, x1, y1] = turfBbox(g);
          if (x0 > cx1 || x1 < cx0 || y0 > cy1 || y1 < cy0) continue;
          if (g.type === "Point") {
            if (pointInPolygonal(clipper.geometry, g.coordinates[0], g.coordinates[1]) !== "outside") out.push(f);
          } else if (g.type === "MultiPoint") {
            const kept = g.coordinates.filter((p) => pointInPolygonal(clipper.geometry, p[0], p[1]) !== "outside");
            if (kept.length) out.push(withGeometry(f, { type: "MultiPoint", coordinates: kept }));
          } else if (isPolygonal(g)) {
            const cut = intersect(featureCollection([{ type: "Feature", geometry: g, properties: {} }, clipper]));
            if (cut) out.push(withGeometry(f, cut.geometry));
          } else if (booleanIntersects(g, clipper)) out.push(f);
        }
        return { kind: "features", features: out };
      };
    },
  },
});
