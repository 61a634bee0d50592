/** The runner of the `points_from_rows` step; its definition (options, sources, output, docs) is in definition.ts. */
import { readNumber } from "@/lib/steps/aggregations";
import { asRows, EVERY } from "@/lib/steps/items";
import { columnValues, tableRows, type TBox, type TFeature } from "@/lib/steps/dataset";
import { unionBox } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { pointsFromRows } from "@/lib/steps/points-from-rows/definition";

/** The point of a row's `lon`/`lat` cells, or null when they do not read as WGS 84 degrees. */
function pointOf(lon: unknown, lat: unknown): [number, number] | null {
  const x = readNumber(lon) ?? NaN;
  const y = readNumber(lat) ?? NaN;
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x) <= 180 && Math.abs(y) <= 90 ? [x, y] : null;
}

export const pointsFromRowsRunner = defineRunner(pointsFromRows, {
  // The box of the caller's rows, when the source is a table input handed over in memory.
  extent: (step, sources) => {
    const ds = sources.data(step.source);
    if (!ds || ds.kind !== "rows") return null;
    let box: TBox | null = null;
    const lon = columnValues(ds, step.lon);
    const lat = columnValues(ds, step.lat);
    for (let r = 0; r < ds.length; r++) {
      const p = pointOf(lon?.[r], lat?.[r]);
      if (p) box = box ? unionBox(box, [p[0], p[1], p[0], p[1]]) : [p[0], p[1], p[0], p[1]];
    }
    return box;
  },
  batch: {
    source: "source",
    start: async (step, ctx) => async (ds) => {
      const rows = tableRows(asRows(ds));
      const features = new Array<TFeature>(rows.length);
      for (let i = 0; i < rows.length; i++) {
        if (i % EVERY === 0) await ctx.checkpoint();
        const r = rows[i];
        const p = pointOf(r[step.lon], r[step.lat]);
        features[i] = { type: "Feature", geometry: p ? { type: "Point", coordinates: p } : null, properties: r };
      }
      return { kind: "features", features };
    },
  },
});
