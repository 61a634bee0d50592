/** The runner of the `distance_pairs` step; its definition (options, sources, output, docs) is in definition.ts. */
import { pick, props, specAs } from "@/lib/steps/items";
import { pointsWithinKm, type TNeighbours } from "@/lib/geo/spatial-index";
import type { TRow } from "@/lib/steps/dataset";
import { eachSourcePoint, sourcesAndTargets, targetDemand } from "@/lib/steps/distance";
import { defineRunner } from "@/lib/steps/define-step";
import { distancePairs } from "@/lib/steps/distance-pairs/definition";

export const distancePairsRunner = defineRunner(distancePairs, {
  // Rows: every source is needed.
  demand: (step, _box, sources) => ({ target: targetDemand(step, sources) }),
  run: async (step, ctx) => {
    const { source, target, index } = sourcesAndTargets(ctx, step);
    // Two passes: first the neighbours of every source, counted against the row limit; then the
    // rows. A request whose pairs exceed the limit fails having built none of them.
    const near: (TNeighbours | undefined)[] = new Array(source.length);
    let count = 0;
    await eachSourcePoint(ctx, source, (_f, pos, i) => {
      if (!pos) return;
      const n = pointsWithinKm(index, pos, step.max_km);
      near[i] = n;
      count += n.feature.length;
      ctx.checkItems(count);
    });
    const rows: TRow[] = [];
    for (let i = 0; i < source.length; i++) {
      const n = near[i];
      if (!n) continue;
      if (i % 16 === 0) await ctx.checkpoint();
      const sourceProps = props(source[i]!);
      for (let k = 0; k < n.feature.length; k++) {
        const row = pick(props(target[n.feature[k]!]!), step.target_fields, pick(sourceProps, step.source_fields));
        row[step.distance_field] = n.km[k]!;
        rows.push(row);
      }
    }
    const columns = [...new Set([...step.source_fields.map(specAs), ...step.target_fields.map(specAs), step.distance_field])];
    return { kind: "rows", columns, rows };
  },
});
