/**
 * The `limit` step. Keep `n` items after skipping `offset`.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { z } from "zod";
import { asItems } from "@/lib/steps/items";
import { ZRef, ACCEPTS_PARAM } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { sourceExtent } from "@/lib/steps/extent";

export const limit = defineStep({
  type: "limit",
  label: "Limit",
  summary: "Keep `n` items after skipping `offset`",
  category: "attribute",
  options: { source: ZRef, n: z.number().int().min(0), offset: z.number().int().min(0).optional() },
  params: { n: ACCEPTS_PARAM.integer, offset: ACCEPTS_PARAM.integer },
  inputs: [{ key: "source", accepts: ACCEPTS.any }],
  output: "same",
  docs: {
    options: "`n` *param* (integer ≥ 0); `offset` *param* (integer ≥ 0)",
    semantics: "Keep `n` items after skipping `offset`",
  },
  // No `demand`: which items are the first n depends on every item before them.
  extent: sourceExtent,
  run: async (step, ctx) => {
    const items = asItems(ctx.get(step.source));
    const from = step.offset ?? 0;
    if (items.kind === "rows") return { kind: "rows", columns: items.columns, rows: items.rows.slice(from, from + step.n) };
    return { kind: "features", features: items.features.slice(from, from + step.n) };
  },
});
