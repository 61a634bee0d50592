/**
 * The `compute` step. Set `field` to the value of `expression` on every feature/row.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { withField } from "@/lib/steps/columns";
import { asItems, mapItems } from "@/lib/steps/items";
import { compileExpression } from "@/lib/expressions/expression";
import { ZRef, ZField, ZExpression } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { sameDemand, sourceExtent } from "@/lib/steps/extent";

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
  extent: sourceExtent,
  demand: sameDemand,
  batch: {
    source: "source",
    start: async (step, ctx) => {
      const ev = compileExpression(step.expression, ctx.paramDecls, ctx.params, "value");
      return (ds) =>
        mapItems(
          asItems(ds),
          ctx,
          (p, f) => ({ ...p, [step.field]: ev(p, f?.geometry?.type, f?.id) }),
          (cols) => (cols.includes(step.field) ? cols : [...cols, step.field]),
        );
    },
  },
});
