/**
 * The `nearest` step. Copy `fields` of the nearest `target` within `max_km` and the distance in km (nulls when none).
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { appendFields, pickedFields } from "@/lib/steps/columns";
import { z } from "zod";
import { props, specAs, pick, withProps } from "@/lib/steps/items";
import { nearestWithinKm } from "@/lib/geo/spatial-index";
import type { TFeature } from "@/lib/steps/dataset";
import { ZRef, ZField, ZFieldSpec, ZMaxKm, ACCEPTS_PARAM } from "@/lib/steps/options";
import { defineStep } from "@/lib/steps/define-step";
import { eachSourcePoint, SOURCE_AND_TARGET, sourcesAndTargets, targetDemand } from "@/lib/steps/distance";
import { sourceExtent } from "@/lib/steps/extent";

export const nearest = defineStep({
  type: "nearest",
  label: "Nearest",
  summary: "Copy `fields` of the nearest `target` within `max_km` and the distance in km (nulls when none)",
  category: "spatial",
  options: {
    source: ZRef,
    target: ZRef,
    max_km: ZMaxKm,
    fields: z.array(ZFieldSpec).default([]),
    distance_field: ZField.default("distance_km"),
  },
  params: { max_km: ACCEPTS_PARAM.number },
  columnOptions: { fields: "target" },
  inputs: SOURCE_AND_TARGET,
  output: "features",
  columns: (step, [src, target]) =>
    appendFields(src, [...pickedFields(target, step.fields ?? []), { name: step.distance_field ?? "distance_km", type: "number" }]),
  docs: {
    options: "`max_km` *param* (> 0, ≤ 20,037); `fields`: field specs of the target; `distance_field` (default `distance_km`)",
    semantics: "Copy `fields` of the nearest target within `max_km` and the distance in km; nulls when none (ties: first target in data order)",
  },
  // Each output feature is its source feature with more properties.
  extent: sourceExtent,
  demand: (step, box, sources) => ({ source: box, target: targetDemand(step, sources) }),
  run: async (step, ctx) => {
    const { source, target, index } = sourcesAndTargets(ctx, step);
    const out = new Array<TFeature>(source.length);
    await eachSourcePoint(ctx, source, (f, pos, i) => {
      const best = pos ? nearestWithinKm(index, pos, step.max_km) : null;
      const p: Record<string, unknown> = { ...props(f) };
      if (best) {
        pick(props(target[best.feature]), step.fields, p);
        p[step.distance_field] = best.km;
      } else {
        for (const s of step.fields) p[specAs(s)] = null;
        p[step.distance_field] = null;
      }
      out[i] = withProps(f, p);
    });
    return { kind: "features", features: out };
  },
});
