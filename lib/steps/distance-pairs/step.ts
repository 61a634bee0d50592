/** The runner of the `distance_pairs` step; its definition (options, sources, output, docs) is in definition.ts. */
import { props, specAs } from "@/lib/steps/items";
import { fieldSources, rowFiller, rowMaker } from "@/lib/steps/row-maker";
import { pointsWithinKm, type TNeighbours } from "@/lib/geo/spatial-index";
import { lazyTable, type TFeature, type TGather, type TRow } from "@/lib/steps/dataset";
import { eachSourcePoint, sourcesAndTargets, targetDemand } from "@/lib/steps/distance";
import { defineRunner } from "@/lib/steps/define-step";
import { distancePairs } from "@/lib/steps/distance-pairs/definition";

/**
 * `j => features[j]'s field ?? null` (a row maker's read, see row-maker.ts). Made here, not
 * inside `run`: the CSV writer keeps it with the target layer (lib/formats/csv.ts), and a
 * closure made in `run` would keep that run's context (its pairs, its step outputs) alive.
 */
function fieldOf(features: readonly TFeature[], field: string): (j: number) => unknown {
  return (j) => props(features[j]!)[field] ?? null;
}

export const distancePairsRunner = defineRunner(distancePairs, {
  // Rows: every source is needed.
  demand: (step, _box, sources) => ({ target: targetDemand(step, sources) }),
  run: async (step, ctx) => {
    const { source, target, index } = sourcesAndTargets(ctx, step);
    // Two passes: first the neighbours of every source (typed arrays the index returns anyway),
    // counted against the row limit; then the pairs as three typed arrays (16 bytes a row),
    // made into rows only as they are read (`lazyTable`). A request whose pairs exceed the limit
    // fails having built nothing: measured on 5,000 places at 500 km, its run process peaked at
    // ~370 MB when it built the first million rows before failing.
    const near: (TNeighbours | undefined)[] = new Array(source.length);
    let count = 0;
    await eachSourcePoint(ctx, source, (_f, pos, i) => {
      if (!pos) return;
      const n = pointsWithinKm(index, pos, step.max_km);
      near[i] = n;
      count += n.feature.length;
      ctx.checkItems(count);
    });
    const sourceOf = new Int32Array(count);
    const targetOf = new Int32Array(count);
    const km = new Float64Array(count);
    let at = 0;
    for (let i = 0; i < source.length; i++) {
      const n = near[i];
      if (!n || n.feature.length === 0) continue;
      sourceOf.fill(i, at, at + n.feature.length);
      targetOf.set(n.feature, at);
      km.set(n.km, at);
      at += n.feature.length;
    }
    const make = rowMaker(step.source_fields, step.target_fields, step.distance_field);
    const fill = rowFiller(step.source_fields, step.target_fields, step.distance_field);
    const sourceProps = (i: number) => props(source[sourceOf[i]!]!);
    const targetProps = (i: number) => props(target[targetOf[i]!]!);
    const rowAt = (i: number) => make(sourceProps(i), targetProps(i), km[i]!);
    let shown: TRow | undefined;
    const view = fill ? (i: number) => (shown ? fill(shown, sourceProps(i), targetProps(i), km[i]!) : (shown = rowAt(i))) : rowAt;
    const columns = [...new Set([...step.source_fields.map(specAs), ...step.target_fields.map(specAs), step.distance_field])];
    // The same fields as gathers over the pairs (for the CSV writer): a place's or a city's value
    // is read and written once however many matches name it.
    // (None where a field is named `__proto__`: such rows are made by `pick`, see row-maker.ts.)
    const gathers = new Map<string, TGather>();
    for (const [key, src] of fill ? fieldSources(step.source_fields, step.target_fields, step.distance_field) : []) {
      if (src.arg === "x") gathers.set(key, { numbers: km });
      else {
        const items = src.arg === "a" ? source : target;
        gathers.set(key, { index: src.arg === "a" ? sourceOf : targetOf, size: items.length, valueAt: fieldOf(items, src.field), of: items, name: src.field });
      }
    }
    return lazyTable(columns, { count, rowAt, view, ...(fill ? { gathers } : {}) });
  },
});
