/** The runner of the `nearest` step; its definition (options, sources, output, docs) is in definition.ts. */
import { props, specAs, pick, withProps } from "@/lib/steps/items";
import { nearestWithinKm } from "@/lib/geo/spatial-index";
import type { TFeature } from "@/lib/steps/dataset";
import { eachSourcePoint, sourcesAndTargets, targetDemand } from "@/lib/steps/distance";
import { sourceExtent } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { nearest } from "@/lib/steps/nearest/definition";

export const nearestRunner = defineRunner(nearest, {
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
