/**
 * The `to_table` step. Features to rows without geometry; `columns` fixes and renames the columns.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { pickedFields } from "@/lib/steps/columns";
import { z } from "zod";
import { asFeatures, pick, props, specAs, columnsOf, EVERY } from "@/lib/steps/items";
import type { TRow } from "@/lib/steps/dataset";
import { ZRef, ZFieldSpec } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { sameDemand } from "@/lib/steps/extent";

export const toTable = defineStep({
  type: "to_table",
  label: "To table",
  summary: "Features to rows without geometry; `columns` fixes and renames the columns",
  category: "attribute",
  options: { source: ZRef, columns: z.array(ZFieldSpec).optional() },
  columnOptions: { columns: "source" },
  inputs: [{ key: "source", accepts: ACCEPTS.features }],
  output: "rows",
  columns: (step, [src]) => (step.columns ? { fields: pickedFields(src, step.columns), open: false } : src),
  docs: {
    options: "`columns`: field specs, optional",
    semantics: "Drop geometry; without `columns` every property becomes a column (first-seen order)",
  },
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
      return { kind: "rows", columns, rows };
    }
    const rows = new Array<TRow>(fs.length);
    for (let i = 0; i < fs.length; i++) {
      if (i % EVERY === 0) await ctx.checkpoint();
      rows[i] = { ...props(fs[i]) };
    }
    return { kind: "rows", columns: columnsOf(rows), rows };
  },
});
