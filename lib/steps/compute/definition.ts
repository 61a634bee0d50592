/** The `compute` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { withField } from "@/lib/steps/columns";
import { ZRef, ZField, ZExpression } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const compute = defineStep({
  type: "compute",
  label: "Compute field",
  summary: "Set `field` to the value of `expression` on every feature/row",
  category: "attribute",
  options: { source: ZRef, field: ZField, expression: ZExpression },
  inputs: [{ key: "source", accepts: ACCEPTS.any }],
  output: "same",
  columns: (step, [src]) => withField(src, step.field, "any"),
  expressions: { expression: "value" },
  docs: {
    options: "`field`; `expression`: expression",
    semantics: "Set `field` to the expression's value on every item",
  },
});
