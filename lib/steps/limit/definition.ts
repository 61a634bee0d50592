/** The `limit` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { z } from "zod";
import { ZRef, ACCEPTS_PARAM } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

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
});
