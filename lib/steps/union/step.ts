/**
 * The `union` step. Concatenate the sources (all of one kind), like SQL UNION ALL.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { unionColumns } from "@/lib/steps/columns";
import { z } from "zod";
import { asItems, itemCount } from "@/lib/steps/items";
import type { TBox, TFeatureSet, TTable } from "@/lib/steps/dataset";
import { ZRef } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { unionBox } from "@/lib/steps/extent";

export const union = defineStep({
  type: "union",
  label: "Union",
  summary: "Concatenate the sources (all of one kind), like SQL UNION ALL",
  category: "attribute",
  options: { sources: z.array(ZRef).min(2) },
  inputs: [{ key: "sources", accepts: ACCEPTS.any, many: true }],
  output: "same",
  columns: (_step, sources) => unionColumns(sources),
  docs: {
    sources: "`sources` (≥ 2, all features or all rows) → same",
    options: "",
    semantics: "Concatenate (SQL UNION ALL); table columns are the union in order",
  },
  extent: (step, sources) => {
    const boxes = step.sources.map((s) => sources.extent(s));
    return boxes.includes(null) ? null : (boxes as TBox[]).reduce(unionBox);
  },
  demand: (_step, box) => ({ sources: box }),
  run: async (step, ctx) => {
    const parts = step.sources.map((s) => asItems(ctx.get(s)));
    // before the copy: a union of unions multiplies items, and one flatMap of millions cannot be stopped
    ctx.checkItems(parts.reduce((n, p) => n + itemCount(p), 0));
    if (parts.every((p) => p.kind === "features")) return { kind: "features", features: parts.flatMap((p) => (p as TFeatureSet).features) };
    if (parts.every((p) => p.kind === "rows")) {
      const tables = parts as TTable[];
      const columns = [...new Set(tables.flatMap((t) => t.columns))];
      return { kind: "rows", columns, rows: tables.flatMap((t) => t.rows) };
    }
    throw new Error("All sources of a union must be of one kind");
  },
});
