/** The `sort` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { z } from "zod";
import { ZRef, ZField, ACCEPTS_PARAM } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const sort = defineStep({
  type: "sort",
  label: "Sort",
  summary: "Stable sort by `field`, `order` asc|desc; nulls last; numbers before text",
  category: "attribute",
  options: { source: ZRef, field: ZField, order: z.enum(["asc", "desc"]).default("asc") },
  params: { field: ACCEPTS_PARAM.string, order: ACCEPTS_PARAM.string },
  columnOptions: { field: "source" },
  inputs: [{ key: "source", accepts: ACCEPTS.any }],
  output: "same",
  docs: {
    options: "`field` *param*; `order` *param* `asc` (default) | `desc`",
    semantics: "Stable sort; numbers before text before booleans; nulls last in both orders",
  },
});
