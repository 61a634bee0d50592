/** The runner of the `compute` step; its definition (options, sources, output, docs) is in definition.ts. */
import { asItems, mapItems } from "@/lib/steps/items";
import { compileExpression } from "@/lib/expressions/expression";
import { SAME_BOXES } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { compute } from "@/lib/steps/compute/definition";

export const computeRunner = defineRunner(compute, {
  ...SAME_BOXES,
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
