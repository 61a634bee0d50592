/**
 * The `filter` step. Keep the features/rows for which the expression `where` is true.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { asItems, props, EVERY } from "@/lib/steps/items";
import { compileExpression } from "@/lib/expressions/expression";
import type { TFeature, TRow } from "@/lib/steps/dataset";
import { ZRef, ZExpression } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { sameDemand, sourceExtent } from "@/lib/steps/extent";

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
  extent: sourceExtent,
  demand: sameDemand,
  batch: {
    source: "source",
    start: async (step, ctx) => {
      const ev = compileExpression(step.where, ctx.paramDecls, ctx.params, "predicate");
      return async (ds) => {
        const items = asItems(ds);
        if (items.kind === "rows") {
          const rows: TRow[] = [];
          for (let i = 0; i < items.rows.length; i++) {
            if (i % EVERY === 0) await ctx.checkpoint();
            if (ev(items.rows[i])) rows.push(items.rows[i]);
          }
          // Everything kept: the source itself (datasets are never mutated), so indexes cached for it serve this step's readers too.
          if (rows.length === items.rows.length) return items;
          return { kind: "rows", columns: items.columns, rows };
        }
        const features: TFeature[] = [];
        for (let i = 0; i < items.features.length; i++) {
          if (i % EVERY === 0) await ctx.checkpoint();
          const f = items.features[i];
          if (ev(props(f), f.geometry?.type, f.id)) features.push(f);
        }
        if (features.length === items.features.length) return items;
        return { kind: "features", features };
      };
    },
  },
});
