/**
 * The `distance_pairs` step. One row per (source, target) pair within `max_km`, nearest first.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { pickedFields } from "@/lib/steps/columns";
import { z } from "zod";
import { pick, props, specAs } from "@/lib/steps/items";
import { pointsWithinKm, type TNeighbours } from "@/lib/geo/spatial-index";
import type { TRow } from "@/lib/steps/dataset";
import { ZRef, ZField, ZFieldSpec, ZMaxKm, ACCEPTS_PARAM } from "@/lib/steps/options";
import { defineStep } from "@/lib/steps/define-step";
import { eachSourcePoint, SOURCE_AND_TARGET, sourcesAndTargets, targetDemand } from "@/lib/steps/distance";

export const distancePairs = defineStep({
  type: "distance_pairs",
  label: "Distance pairs",
  summary: "One row per (source, target) pair within `max_km`, nearest first",
  category: "spatial",
  options: {
    source: ZRef,
    target: ZRef,
    max_km: ZMaxKm,
    source_fields: z.array(ZFieldSpec).default([]),
    target_fields: z.array(ZFieldSpec).default([]),
    distance_field: ZField.default("distance_km"),
  },
  params: { max_km: ACCEPTS_PARAM.number },
  columnOptions: { source_fields: "source", target_fields: "target" },
  inputs: SOURCE_AND_TARGET,
  output: "rows",
  columns: (step, [src, target]) => ({
    fields: [
      ...pickedFields(src, step.source_fields ?? []),
      ...pickedFields(target, step.target_fields ?? []),
      { name: step.distance_field ?? "distance_km", type: "number" },
    ],
    open: false,
  }),
  docs: {
    options: "`max_km` *param*; `source_fields`, `target_fields`: field specs; `distance_field` (default `distance_km`)",
    semantics: "One row per (source, target) pair within `max_km`, per source nearest first",
  },
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
