/**
 * The `points_from_rows` step. A Point per row from `lon`/`lat` columns (null geometry when not valid).
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { readNumber } from "@/lib/steps/aggregations";
import { asRows, EVERY } from "@/lib/steps/items";
import type { TBox, TFeature, TRow } from "@/lib/steps/dataset";
import { ZRef, ZField } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { unionBox } from "@/lib/steps/extent";

/** The point of a row, or null when its `lon`/`lat` do not read as WGS 84 degrees. */
function pointOf(row: TRow, lon: string, lat: string): [number, number] | null {
  const x = readNumber(row[lon]) ?? NaN;
  const y = readNumber(row[lat]) ?? NaN;
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x) <= 180 && Math.abs(y) <= 90 ? [x, y] : null;
}

export const pointsFromRows = defineStep({
  type: "points_from_rows",
  label: "Points from rows",
  summary: "A Point per row from `lon`/`lat` columns (null geometry when not valid)",
  category: "attribute",
  options: { source: ZRef, lon: ZField, lat: ZField },
  columnOptions: { lon: "source", lat: "source" },
  inputs: [{ key: "source", accepts: ACCEPTS.rows }],
  output: "features",
  docs: {
    options: "`lon`, `lat`: column names",
    semantics: "A Point per row from numbers or numeric text; null geometry when missing, not finite or out of range; all columns become properties",
  },
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
