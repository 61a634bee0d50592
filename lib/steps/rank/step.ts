/**
 * The `rank` step. Add a 1-based position `field` in the current order.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { withFirst } from "@/lib/steps/columns";
import { asItems, mapItems } from "@/lib/steps/items";
import { ZRef, ZField } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { sourceExtent } from "@/lib/steps/extent";

export const rank = defineStep({
  type: "rank",
  label: "Rank",
  summary: "Add a 1-based position `field` in the current order",
  category: "attribute",
  options: { source: ZRef, field: ZField.default("rank") },
  inputs: [{ key: "source", accepts: ACCEPTS.any }],
  output: "same",
  columns: (step, [src]) => withFirst(src, step.field ?? "rank", "integer"),
  docs: {
    options: "`field` (default `rank`)",
    semantics: "Add the 1-based position as the first column",
  },
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
