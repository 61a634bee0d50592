/**
 * The `within_distance` step. Aggregate the `target` features within `max_km` of each source feature.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { aggregationFields, appendFields } from "@/lib/steps/columns";
import { z } from "zod";
import { props, withProps } from "@/lib/steps/items";
import { accs, accValues, fieldColumn } from "@/lib/steps/aggregations";
import { pointsWithinKm } from "@/lib/geo/spatial-index";
import type { TFeature } from "@/lib/steps/dataset";
import { ZRef, ZAggregation, ZMaxKm, ACCEPTS_PARAM } from "@/lib/steps/options";
import { defineStep } from "@/lib/steps/define-step";
import { eachSourcePoint, SOURCE_AND_TARGET, sourcesAndTargets, targetDemand } from "@/lib/steps/distance";
import { sourceExtent } from "@/lib/steps/extent";

export const withinDistance = defineStep({
  type: "within_distance",
  label: "Within distance",
  summary: "Aggregate the `target` features within `max_km` of each source feature",
  category: "spatial",
  options: { source: ZRef, target: ZRef, max_km: ZMaxKm, aggregations: z.array(ZAggregation).min(1) },
  params: { max_km: ACCEPTS_PARAM.number },
  columnOptions: { "aggregations.field": "target" },
  inputs: SOURCE_AND_TARGET,
  output: "features",
  columns: (step, [src, target]) => appendFields(src, aggregationFields(target, step.aggregations)),
  docs: {
    options: "`max_km` *param*; `aggregations` (≥ 1)",
    semantics: "Aggregate the targets within `max_km` (inclusive) of each source feature",
  },
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
