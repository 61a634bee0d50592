/** The runner of the `rank` step; its definition (options, sources, output, docs) is in definition.ts. */
import { asItems, mapItems } from "@/lib/steps/items";
import { sourceExtent } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { rank } from "@/lib/steps/rank/definition";

export const rankRunner = defineRunner(rank, {
  // No `demand`: an item's rank depends on every item before it.
  extent: sourceExtent,
  run: (step, ctx) =>
    mapItems(
      asItems(ctx.get(step.source)),
      ctx,
      (p, _f, i) => ({ ...p, [step.field]: (i ?? 0) + 1 }),
      (cols) => [step.field, ...cols.filter((c) => c !== step.field)],
    ),
});
