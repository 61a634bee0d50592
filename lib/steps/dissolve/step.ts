/** The runner of the `dissolve` step; its definition (options, sources, output, docs) is in definition.ts. */
import { featureCollection, union as turfUnion } from "@turf/turf";
import type { Feature, MultiPolygon, Polygon } from "geojson";
import { asFeatures, props, EVERY } from "@/lib/steps/items";
import { isPolygonal } from "@/lib/steps/geometry";
import type { TFeature } from "@/lib/steps/dataset";
import { sourceExtent } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { dissolve } from "@/lib/steps/dissolve/definition";

export const dissolveRunner = defineRunner(dissolve, {
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
