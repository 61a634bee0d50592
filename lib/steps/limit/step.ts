/** The runner of the `limit` step; its definition (options, sources, output, docs) is in definition.ts. */
import { asItems } from "@/lib/steps/items";
import { sliceTable } from "@/lib/steps/dataset";
import { sourceExtent } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { limit } from "@/lib/steps/limit/definition";

export const limitRunner = defineRunner(limit, {
  // No `demand`: which items are the first n depends on every item before them.
  extent: sourceExtent,
  run: async (step, ctx) => {
    const items = asItems(ctx.get(step.source));
    const from = step.offset ?? 0;
    if (items.kind === "rows") return sliceTable(items, from, from + step.n);
    return { kind: "features", features: items.features.slice(from, from + step.n) };
  },
});
