/** The runner of the `union` step; its definition (options, sources, output, docs) is in definition.ts. */
import { asItems, itemCount } from "@/lib/steps/items";
import { concatTables, type TBox, type TFeatureSet } from "@/lib/steps/dataset";
import { unionBox } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { union } from "@/lib/steps/union/definition";

export const unionRunner = defineRunner(union, {
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
    const tables = parts.filter((p) => p.kind === "rows");
    // Columns: the union of the tables' columns, in order.
    if (tables.length === parts.length) return concatTables([...new Set(tables.flatMap((t) => t.columns))], tables);
    throw new Error("All sources of a union must be of one kind");
  },
});
