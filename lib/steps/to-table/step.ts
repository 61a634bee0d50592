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
    if (step.columns) {
      const columns = step.columns.map(specAs);
      const rows = new Array<TRow>(fs.length);
      for (let i = 0; i < fs.length; i++) {
        if (i % EVERY === 0) await ctx.checkpoint();
        rows[i] = pick(props(fs[i]), step.columns);
      }
      return tableFromRows(columns, rows);
    }
    const rows = new Array<TRow>(fs.length);
    for (let i = 0; i < fs.length; i++) {
      if (i % EVERY === 0) await ctx.checkpoint();
      rows[i] = { ...props(fs[i]) };
    }
    return tableFromRows(columnsOf(rows), rows);
  },
});
