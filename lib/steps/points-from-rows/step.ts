/**
 * The `points_from_rows` step. A Point per row from `lon`/`lat` columns (null geometry when not valid).
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { readNumber } from "@/lib/steps/aggregations";
import { asRows, EVERY } from "@/lib/steps/items";
import type { TFeature } from "@/lib/steps/dataset";
import { ZRef, ZField } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const pointsFromRows = defineStep({
  type: "points_from_rows",
  label: "Points from rows",
  summary: "A Point per row from `lon`/`lat` columns (null geometry when not valid)",
  category: "attribute",
  options: { source: ZRef, lon: ZField, lat: ZField },
  inputs: [{ key: "source", accepts: ACCEPTS.rows }],
  output: "features",
  docs: {
    options: "`lon`, `lat`: column names",
    semantics: "A Point per row from numbers or numeric text; null geometry when missing, not finite or out of range; all columns become properties",
  },
  run: async (step, ctx) => {
    const t = asRows(ctx.get(step.source));
    const num = (v: unknown): number => readNumber(v) ?? NaN;
    const features = new Array<TFeature>(t.rows.length);
    for (let i = 0; i < t.rows.length; i++) {
      if (i % EVERY === 0) await ctx.checkpoint();
      const r = t.rows[i];
      const lon = num(r[step.lon]);
      const lat = num(r[step.lat]);
      const ok = Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lon) <= 180 && Math.abs(lat) <= 90;
      features[i] = { type: "Feature", geometry: ok ? { type: "Point", coordinates: [lon, lat] } : null, properties: { ...r } };
    }
    return { kind: "features", features };
  },
});
