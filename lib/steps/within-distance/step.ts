/** The runner of the `within_distance` step; its definition (options, sources, output, docs) is in definition.ts. */
import { props, withProps } from "@/lib/steps/items";
import { accs, accValues, fieldColumn } from "@/lib/steps/aggregations";
import { pointsWithinKm } from "@/lib/geo/spatial-index";
import type { TFeature } from "@/lib/steps/dataset";
import { eachSourcePoint, sourcesAndTargets, targetDemand } from "@/lib/steps/distance";
import { sourceExtent } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { withinDistance } from "@/lib/steps/within-distance/definition";

export const withinDistanceRunner = defineRunner(withinDistance, {
  // Each output feature is its source feature with more properties.
  extent: sourceExtent,
  demand: (step, box, sources) => ({ source: box, target: targetDemand(step, sources) }),
  run: async (step, ctx) => {
    const { source, target, index } = sourcesAndTargets(ctx, step);
    const out = new Array<TFeature>(source.length);
    const columns = step.aggregations.map((a) => (a.field === undefined ? null : fieldColumn(target, a.field)));
    await eachSourcePoint(ctx, source, (f, pos, i) => {
      const list = accs(step.aggregations);
      if (pos) {
        const near = pointsWithinKm(index, pos, step.max_km);
        for (let k = 0; k < near.feature.length; k++) for (let j = 0; j < list.length; j++) list[j]!.addAt(columns[j] ?? null, near.feature[k]!);
      }
      out[i] = withProps(f, accValues(list, { ...props(f) }));
    });
    return { kind: "features", features: out };
  },
});
