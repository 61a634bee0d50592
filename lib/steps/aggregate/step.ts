/**
 * The `aggregate` step. Group by `group_by` (none = one row) and compute `aggregations`.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { aggregationFields, typeOf } from "@/lib/steps/columns";
import { z } from "zod";
import { asItems, props, EVERY } from "@/lib/steps/items";
import { accs, accValues, type Acc } from "@/lib/steps/aggregations";
import { ZRef, ZField, ZAggregation } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const aggregate = defineStep({
  type: "aggregate",
  label: "Aggregate",
  summary: "Group by `group_by` (none = one row) and compute `aggregations`",
  category: "attribute",
  options: { source: ZRef, group_by: z.array(ZField).default([]), aggregations: z.array(ZAggregation).min(1) },
  columnOptions: { group_by: "source", "aggregations.field": "source" },
  inputs: [{ key: "source", accepts: ACCEPTS.any }],
  output: "rows",
  columns: (step, [src]) => ({
    fields: [...step.group_by.map((name) => ({ name, type: typeOf(src, name) })), ...aggregationFields(src, step.aggregations)],
    open: false,
  }),
  docs: {
    options: "`group_by`: fields (default none = one row); `aggregations` (≥ 1)",
    semantics: "One row per group (first-seen order), group fields then aggregates; with no groups and no input one row of empty aggregates",
  },
  batchSources: ["source"],
  run: async (step, ctx) => {
    const groups = new Map<string, { key: Record<string, unknown>; accs: Acc[] }>();
    if (step.group_by.length === 0) groups.set("", { key: {}, accs: accs(step.aggregations) });
    for await (const ds of ctx.batches(step.source)) {
      const items = asItems(ds);
      const list: Record<string, unknown>[] = items.kind === "rows" ? items.rows : items.features.map(props);
      for (let i = 0; i < list.length; i++) {
        if (i % EVERY === 0) await ctx.checkpoint();
        const p = list[i];
        let g: { key: Record<string, unknown>; accs: Acc[] } | undefined;
        if (step.group_by.length === 0) g = groups.get("");
        else {
          const key: Record<string, unknown> = {};
          for (const f of step.group_by) key[f] = p[f] === undefined ? null : p[f];
          const k = JSON.stringify(step.group_by.map((f) => key[f]));
          g = groups.get(k);
          if (!g) groups.set(k, (g = { key, accs: accs(step.aggregations) }));
        }
        for (const a of g!.accs) a.add(p);
      }
    }
    const rows = [...groups.values()].map((g) => accValues(g.accs, { ...g.key }));
    return { kind: "rows", columns: [...step.group_by, ...step.aggregations.map((a) => a.as)], rows };
  },
});
