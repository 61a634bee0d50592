/**
 * The `distance_pairs` step. One row per (source, target) pair within `max_km`, nearest first.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { pickedFields } from "@/lib/steps/columns";
import { z } from "zod";
import { props, specAs, pick } from "@/lib/steps/items";
import { pointsWithinKm } from "@/lib/geo/spatial-index";
import type { TRow } from "@/lib/steps/dataset";
import { ZRef, ZField, ZFieldSpec, ZMaxKm, ACCEPTS_PARAM } from "@/lib/steps/options";
import { defineStep } from "@/lib/steps/define-step";
import { eachSourcePoint, SOURCE_AND_TARGET, sourcesAndTargets } from "@/lib/steps/distance";

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
  run: async (step, ctx) => {
    const { source, target, index } = sourcesAndTargets(ctx, step);
    const rows: TRow[] = [];
    await eachSourcePoint(ctx, source, (f, pos) => {
      if (!pos) return;
      const sp = pick(props(f), step.source_fields);
      const near = pointsWithinKm(index, pos, step.max_km);
      for (let k = 0; k < near.feature.length; k++) {
        const row = pick(props(target[near.feature[k]]), step.target_fields, { ...sp });
        row[step.distance_field] = near.km[k];
        rows.push(row);
      }
      ctx.checkItems(rows.length); // before the next place multiplies them further
    });
    const columns = [...new Set([...step.source_fields.map(specAs), ...step.target_fields.map(specAs), step.distance_field])];
    return { kind: "rows", columns, rows };
  },
});
