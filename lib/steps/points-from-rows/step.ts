/** The runner of the `points_from_rows` step; its definition (options, sources, output, docs) is in definition.ts. */
import { readNumber } from "@/lib/steps/aggregations";
import { asRows, EVERY } from "@/lib/steps/items";
import type { TBox, TFeature, TRow } from "@/lib/steps/dataset";
import { unionBox } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { pointsFromRows } from "@/lib/steps/points-from-rows/definition";

/** The point of a row, or null when its `lon`/`lat` do not read as WGS 84 degrees. */
function pointOf(row: TRow, lon: string, lat: string): [number, number] | null {
  const x = readNumber(row[lon]) ?? NaN;
  const y = readNumber(row[lat]) ?? NaN;
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x) <= 180 && Math.abs(y) <= 90 ? [x, y] : null;
}

export const pointsFromRowsRunner = defineRunner(pointsFromRows, {
  // The box of the caller's rows, when the source is a table input handed over in memory.
  extent: (step, sources) => {
    const ds = sources.data(step.source);
    if (!ds || ds.kind !== "rows") return null;
    let box: TBox | null = null;
    for (const row of ds.rows) {
      const p = pointOf(row, step.lon, step.lat);
      if (p) box = box ? unionBox(box, [p[0], p[1], p[0], p[1]]) : [p[0], p[1], p[0], p[1]];
    }
    return box;
  },
  batch: {
    source: "source",
    start: async (step, ctx) => async (ds) => {
      const t = asRows(ds);
      const features = new Array<TFeature>(t.rows.length);
      for (let i = 0; i < t.rows.length; i++) {
        if (i % EVERY === 0) await ctx.checkpoint();
        const r = t.rows[i];
        const p = pointOf(r, step.lon, step.lat);
        features[i] = { type: "Feature", geometry: p ? { type: "Point", coordinates: p } : null, properties: { ...r } };
      }
      return { kind: "features", features };
    },
  },
});
