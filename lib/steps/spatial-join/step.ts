/** The runner of the `spatial_join` step; its definition (options, sources, output, docs) is in definition.ts. */
import type { Position } from "geojson";
import { asFeatures, props, withProps } from "@/lib/steps/items";
import { accs, accValues } from "@/lib/steps/aggregations";
import { isPolygonal } from "@/lib/steps/geometry";
import { pointInPolygonal } from "@/lib/geo/point-in-polygon";
import { geometryIndex, representativePoint } from "@/lib/geo/spatial-index";
import { defineRunner } from "@/lib/steps/define-step";
import { pointRowsOf, propsAt, rowCount } from "@/lib/steps/point-columns";
import { spatialJoin } from "@/lib/steps/spatial-join/definition";

export const spatialJoinRunner = defineRunner(spatialJoin, {
  // The output is the polygons, each with the points in it: such a point (or the centroid of a
  // non-point, which lies in its own box) is in the polygons' box.
  extent: (step, sources) => sources.extent(step.polygons),
  demand: (step, box, sources) => ({ polygons: box, points: sources.extent(step.polygons) }),
  batchSources: ["points"],
  run: async (step, ctx) => {
    const polys = asFeatures(ctx.get(step.polygons), "`polygons` source").features;
    const { index, entries } = geometryIndex(polys);
    const perPoly = polys.map(() => accs(step.aggregations));
    const lastPoint = new Int32Array(polys.length).fill(-1);
    // i: the point's position in the whole points source, across batches
    let i = 0;
    // Points held by column (lib/steps/point-columns.ts): read where they lie, their properties made only for a hit.
    const xy: Position = [0, 0];
    const atXy = [xy];
    for await (const ds of index ? ctx.batches(step.points) : []) {
      const view = pointRowsOf(ds);
      const cols = view?.cols;
      const rows = view?.rows;
      const points = view ? [] : asFeatures(ds, "`points` source").features;
      const count = view ? rowCount(view) : points.length;
      for (let k = 0; k < count; k++, i++) {
        if (i % 512 === 0) await ctx.checkpoint();
        let positions: Position[];
        let p: Record<string, unknown> | undefined;
        // r: the point's row in its columns
        const r = rows ? rows[k]! : k;
        if (cols) {
          xy[0] = cols.points[2 * r]!;
          xy[1] = cols.points[2 * r + 1]!;
          positions = atXy;
        } else {
          const g = points[k].geometry;
          if (!g) continue;
          positions =
            g.type === "Point" ? [g.coordinates] : g.type === "MultiPoint" ? g.coordinates : [representativePoint(g)].filter((q): q is Position => q !== null);
          p = props(points[k]);
        }
        for (const pos of positions) {
          const cand = index!.search(pos[0], pos[1], pos[0], pos[1]);
          for (const c of cand) {
            const e = entries[c];
            if (lastPoint[e.feature] === i || !isPolygonal(e.geometry)) continue;
            if (pointInPolygonal(e.geometry, pos[0], pos[1]) !== "outside") {
              lastPoint[e.feature] = i; // a point counts once per polygon feature
              p ??= propsAt(cols!, r);
              for (const a of perPoly[e.feature]) a.add(p);
            }
          }
        }
      }
    }
    return { kind: "features", features: polys.map((f, i) => withProps(f, accValues(perPoly[i], { ...props(f) }))) };
  },
});
