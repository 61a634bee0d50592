/** The runner of the `spatial_filter` step; its definition (options, sources, output, docs) is in definition.ts. */
import { bbox as turfBbox, booleanContains, booleanIntersects, booleanWithin } from "@turf/turf";
import type { Geometry, Position } from "geojson";
import { asFeatures } from "@/lib/steps/items";
import { isPolygonal, pointHits } from "@/lib/steps/geometry";
import { geometryIndex, someEntryAt } from "@/lib/geo/spatial-index";
import type { TFeature, TFeatureSet } from "@/lib/steps/dataset";
import { smallerBox, sourceExtent } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { KeptRows, pointRowsOf, rowCount } from "@/lib/steps/point-columns";
import { spatialFilter } from "@/lib/steps/spatial-filter/definition";

/**
 * `test(container)`; where Turf does not support the pair of types, true when `test` holds for
 * one of a MultiPolygon's polygons, else `unsupported()` is thrown.
 */
function byPolygons(container: Geometry, test: (c: Geometry) => boolean, unsupported: () => Error): boolean {
  try {
    return test(container);
  } catch {
    if (container.type !== "MultiPolygon") throw unsupported();
    return container.coordinates.some((c) => {
      try {
        return test({ type: "Polygon", coordinates: c });
      } catch {
        return false;
      }
    });
  }
}

/** `container` contains `g` (Turf booleanContains; a MultiPolygon contains what one of its polygons contains). */
function contains(container: Geometry, g: Geometry): boolean {
  if (g.type === "Point" && isPolygonal(container)) return pointHits(g.coordinates, container, true);
  return byPolygons(
    container,
    (c) => booleanContains(c, g),
    () => new Error(`"contains" is not supported for ${container.type} containing ${g.type}`),
  );
}

function within(g: Geometry, container: Geometry): boolean {
  if (g.type === "Point") return pointHits(g.coordinates, container, true);
  return byPolygons(
    container,
    (c) => booleanWithin(g, c),
    () => new Error(`"within" is not supported for ${g.type} in ${container.type}`),
  );
}

export const spatialFilterRunner = defineRunner(spatialFilter, {
  extent: sourceExtent,
  // Every hit meets `by` (and so its box): only `disjoint` keeps features away from it. `by`
  // features that can hit meet a source feature, so the source's box.
  demand: (step, box, sources) => ({
    source: sources.data(step.by) === null || step.predicate === "disjoint" ? box : smallerBox(box, sources.extent(step.by)),
    by: sources.extent(step.source),
  }),
  batch: {
    source: "source",
    start: async (step, ctx) => {
      const byDs = ctx.get(step.by);
      if (byDs === null) return async (ds) => asFeatures(ds); // omitted optional area: no restriction
      const by = asFeatures(byDs, "`by` source");
      const byIndex = geometryIndex(by.features);
      const { index, entries } = byIndex;
      const ignoreBoundary = step.predicate === "within";
      // One test for every point (the point it reads is set before each query): no closure per point.
      let point: Position = [0, 0];
      const pointIn = (c: number) => pointHits(point, entries[c].geometry, ignoreBoundary);
      return async (ds) => {
        const keepIfHit = step.predicate !== "disjoint";
        const view = step.predicate === "contains" ? undefined : pointRowsOf(ds);
        if (view) {
          // Held by column: each point tested where it lies, the kept rows noted, nothing copied.
          const { cols, rows } = view;
          const kept = new KeptRows(view);
          const xy: Position = [0, 0];
          point = xy;
          for (let i = 0, n = rowCount(view); i < n; i++) {
            if (i % 16 === 0) await ctx.checkpoint();
            const r = rows ? rows[i]! : i;
            xy[0] = cols.points[2 * r]!;
            xy[1] = cols.points[2 * r + 1]!;
            const hit = index !== null && someEntryAt(byIndex, xy[0], xy[1], pointIn);
            if (hit === keepIfHit) kept.keep(i);
            else kept.drop(i);
          }
          return kept.setOf(ds as TFeatureSet);
        }
        const source = asFeatures(ds);
        const out: TFeature[] = [];
        for (let i = 0; i < source.features.length; i++) {
          if (i % 16 === 0) await ctx.checkpoint();
          const f = source.features[i];
          const g = f.geometry;
          let hit = false;
          if (g && index) {
            if (g.type === "Point" && step.predicate !== "contains") {
              point = g.coordinates;
              hit = someEntryAt(byIndex, point[0]!, point[1]!, pointIn);
            } else {
              const [x0, y0, x1, y1] = turfBbox(g);
              const cand = index.search(x0, y0, x1, y1);
              if (step.predicate === "within" || step.predicate === "contains") {
                // Whole features of `by` (not their polygon parts): within / contains need all of it.
                const test = step.predicate === "within" ? within : contains;
                hit = [...new Set(cand.map((c) => entries[c].feature))].some((fi) => test(g, by.features[fi].geometry!));
              } else hit = cand.some((c) => booleanIntersects(g, entries[c].geometry));
            }
          }
          if (hit === keepIfHit) out.push(f);
        }
        return { kind: "features", features: out };
      };
    },
  },
});
