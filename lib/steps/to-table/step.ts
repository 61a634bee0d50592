/** The runner of the `to_table` step; its definition (options, sources, output, docs) is in definition.ts. */
import { asFeatures, pick, props, specAs, columnsOf, EVERY } from "@/lib/steps/items";
import { tableFromRows, type TRow } from "@/lib/steps/dataset";
import { sameDemand } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { toTable } from "@/lib/steps/to-table/definition";

export const toTableRunner = defineRunner(toTable, {
  demand: sameDemand,
  run: async (step, ctx) => {
    const fs = asFeatures(ctx.get(step.source)).features;
    // Without `columns`: every property, the columns in first-seen order (the table copies the cells).
    const rows = new Array<TRow>(fs.length);
    for (let i = 0; i < fs.length; i++) {
      if (i % EVERY === 0) await ctx.checkpoint();
      rows[i] = step.columns ? pick(props(fs[i]), step.columns) : props(fs[i]);
    }
    return tableFromRows(step.columns ? step.columns.map(specAs) : columnsOf(rows), rows);
  },
});
