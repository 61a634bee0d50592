/**
 * The `dissolve` step. Union the polygons, per value of `field` if given (Turf union).
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { NO_COLUMNS, typeOf } from "@/lib/steps/columns";
import { featureCollection, union as turfUnion } from "@turf/turf";
import type { Feature, MultiPolygon, Polygon } from "geojson";
import { asFeatures, props, EVERY } from "@/lib/steps/items";
import { isPolygonal } from "@/lib/steps/geometry";
import type { TFeature } from "@/lib/steps/dataset";
import { ZRef, ZField } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { sourceExtent } from "@/lib/steps/extent";

export const dissolve = defineStep({
  type: "dissolve",
  label: "Dissolve",
  summary: "Union the polygons, per value of `field` if given (Turf union)",
  category: "spatial",
  options: { source: ZRef, field: ZField.optional() },
  columnOptions: { field: "source" },
  inputs: [{ key: "source", accepts: ACCEPTS.features }],
  output: "features",
  columns: (step, [src]) => (step.field === undefined ? NO_COLUMNS : { fields: [{ name: step.field, type: typeOf(src, step.field) }], open: false }),
  docs: {
    options: "`field`, optional",
    semantics: "Union of the polygons (Turf `union`), one feature per value of `field` (or one in all); non-polygons skipped",
  },
  // A union of polygons lies in their box; which polygons merge depends on all of them.
  extent: sourceExtent,
  run: async (step, ctx) => {
    const fs = asFeatures(ctx.get(step.source)).features;
    const groups = new Map<string, { value: unknown; polys: Feature<Polygon | MultiPolygon>[] }>();
    for (let i = 0; i < fs.length; i++) {
      if (i % EVERY === 0) await ctx.checkpoint();
      const f = fs[i];
      if (!isPolygonal(f.geometry)) continue;
      const value = step.field === undefined ? null : (props(f)[step.field] ?? null);
      const k = JSON.stringify(value);
      let g = groups.get(k);
      if (!g) groups.set(k, (g = { value, polys: [] }));
      g.polys.push({ type: "Feature", geometry: f.geometry, properties: {} });
    }
    const out: TFeature[] = [];
    for (const g of groups.values()) {
      await ctx.checkpoint();
      const merged = g.polys.length === 1 ? g.polys[0] : turfUnion(featureCollection(g.polys));
      const properties = step.field === undefined ? {} : { [step.field]: g.value };
      out.push({ type: "Feature", geometry: merged?.geometry ?? null, properties });
    }
    return { kind: "features", features: out };
  },
});
