/** The `filter` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { ZRef, ZExpression } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const filter = defineStep({
  type: "filter",
  label: "Filter",
  summary: "Keep the features/rows for which the expression `where` is true",
  category: "attribute",
  options: { source: ZRef, where: ZExpression },
  inputs: [{ key: "source", accepts: ACCEPTS.any }],
  output: "same",
  expressions: { where: "predicate" },
  docs: {
    options: "`where`: expression (boolean)",
    semantics: "Keep items for which `where` is true",
  },
});
