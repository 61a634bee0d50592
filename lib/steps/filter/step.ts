/** The runner of the `filter` step; its definition (options, sources, output, docs) is in definition.ts. */
import { asItems, props, EVERY } from "@/lib/steps/items";
import { compileExpression, fieldsRead } from "@/lib/expressions/expression";
import { tableRows, takeRows, type TFeature } from "@/lib/steps/dataset";
import { SAME_BOXES } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { KeptRows, pointRowsOf, propsCursor, rowCount } from "@/lib/steps/point-columns";
import { filter } from "@/lib/steps/filter/definition";

export const filterRunner = defineRunner(filter, {
  ...SAME_BOXES,
  batch: {
    source: "source",
    start: async (step, ctx) => {
      const ev = compileExpression(step.where, ctx.paramDecls, ctx.params, "predicate");
      // by column, only the fields the test can read are filled (bench "data", the 1-degree `cities-in-area` row: 1 of 4)
      const fields = fieldsRead(step.where) ?? undefined;
      return async (ds) => {
        const items = asItems(ds);
        if (items.kind === "rows") {
          const rows = tableRows(items);
          const kept: number[] = [];
          for (let i = 0; i < rows.length; i++) {
            if (i % EVERY === 0) await ctx.checkpoint();
            if (ev(rows[i])) kept.push(i);
          }
          // Everything kept: the source itself (datasets are never mutated), so indexes cached for it serve this step's readers too.
          if (kept.length === rows.length) return items;
          return takeRows(items, kept);
        }
        const view = pointRowsOf(items);
        if (view) {
          // Held by column: one properties object refilled for each test (a predicate keeps nothing of it), the kept rows noted, nothing copied.
          const propsOf = propsCursor(view.cols, fields);
          const { rows } = view;
          const kept = new KeptRows(view);
          for (let i = 0, n = rowCount(view); i < n; i++) {
            if (i % EVERY === 0) await ctx.checkpoint();
            if (ev(propsOf(rows ? rows[i]! : i), "Point", undefined)) kept.keep(i);
            else kept.drop(i);
          }
          return kept.setOf(items);
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
