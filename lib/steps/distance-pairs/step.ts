/**
 * The runner of the `distance_pairs` step; its definition (options, sources, output, docs) is in
 * definition.ts. The pairs are index arrays (source, target, km); each output column is
 * `take(field's column, pairs' index)`, so no record is built per pair.
 */
import { props, specAs, specFrom } from "@/lib/steps/items";
import { pointsWithinKm, type TNeighbours } from "@/lib/geo/spatial-index";
import { take, type TColumnValues, type TFeature } from "@/lib/steps/dataset";
import { eachSourcePoint, sourcesAndTargets, targetDemand } from "@/lib/steps/distance";
import { defineRunner } from "@/lib/steps/define-step";
import { distancePairs } from "@/lib/steps/distance-pairs/definition";

/** The column of field `from` over `features` (a missing field is null, as `pick` copies it). */
function propertyColumn(features: readonly TFeature[], from: string): unknown[] {
  return features.map((f) => props(f)[from] ?? null);
}

export const distancePairsRunner = defineRunner(distancePairs, {
  // Rows: every source is needed.
  demand: (step, _box, sources) => ({ target: targetDemand(step, sources) }),
  run: async (step, ctx) => {
    const { source, target, index } = sourcesAndTargets(ctx, step);
    // Two passes: first the neighbours of every source, counted against the row limit; then the
    // pairs. A request whose pairs exceed the limit fails having built none of them.
    const near: (TNeighbours | undefined)[] = new Array(source.length);
    let count = 0;
    await eachSourcePoint(ctx, source, (_f, pos, i) => {
      if (!pos) return;
      const n = pointsWithinKm(index, pos, step.max_km);
      near[i] = n;
      count += n.feature.length;
      ctx.checkItems(count);
    });
    const sourceIndex = new Int32Array(count);
    const targetIndex = new Int32Array(count);
    const km = new Float64Array(count);
    let k = 0;
    for (let i = 0; i < source.length; i++) {
      const n = near[i];
      if (!n) continue;
      sourceIndex.fill(i, k, k + n.feature.length);
      targetIndex.set(n.feature, k);
      km.set(n.km, k);
      k += n.feature.length;
    }
    // A name given twice keeps its last value (distance over target fields over source fields), in the place of its first.
    const cells = new Map<string, TColumnValues>();
    for (const s of step.source_fields) cells.set(specAs(s), take(propertyColumn(source, specFrom(s)), sourceIndex));
    for (const s of step.target_fields) cells.set(specAs(s), take(propertyColumn(target, specFrom(s)), targetIndex));
    cells.set(step.distance_field, km);
    return { kind: "rows", columns: [...cells.keys()], values: [...cells.values()], length: count };
  },
});
