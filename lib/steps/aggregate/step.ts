/** The runner of the `aggregate` step; its definition (options, sources, output, docs) is in definition.ts. */
import { asItems, props, EVERY } from "@/lib/steps/items";
import { accs, accValues, tableFieldColumn, type Acc } from "@/lib/steps/aggregations";
import { columnValues, tableFromRows, tableRows } from "@/lib/steps/dataset";
import { defineRunner } from "@/lib/steps/define-step";
import { pointColumnsOf } from "@/lib/steps/point-columns";
import { aggregate } from "@/lib/steps/aggregate/definition";

export const aggregateRunner = defineRunner(aggregate, {
  batchSources: ["source"],
  run: async (step, ctx) => {
    const groups = new Map<string, { key: Record<string, unknown>; accs: Acc[] }>();
    // No groups: one row, even over no items, and no key to build per item (about 2 ms of the
    // 11,851 items of bench row "cities-in-area, 1-degree box, 10M-point layer").
    const single = step.group_by.length === 0 ? { key: {}, accs: accs(step.aggregations) } : undefined;
    if (single) groups.set("[]", single);
    /** The group of an item whose group_by values are `valueOf(field)`. */
    const groupOf = (valueOf: (field: string) => unknown) => {
      const key: Record<string, unknown> = {};
      for (const f of step.group_by) {
        const v = valueOf(f);
        key[f] = v === undefined ? null : v;
      }
      const k = JSON.stringify(step.group_by.map((f) => key[f]));
      let g = groups.get(k);
      if (!g) groups.set(k, (g = { key, accs: accs(step.aggregations) }));
      return g;
    };
    // A field read by column must read as a record's: no name of a plain object's own members.
    const byColumn = [...step.group_by, ...step.aggregations.map((a) => a.field ?? "")].every((f) => !(f in Object.prototype));
    for await (const ds of ctx.batches(step.source)) {
      const items = asItems(ds);
      // A table, or points held by column: read by column, with no record per item.
      const table = items.kind === "rows" ? items : pointColumnsOf(items)?.props;
      if (table && byColumn) {
        const fields = step.aggregations.map((a) => (a.field === undefined ? null : tableFieldColumn(table, a.field)));
        if (single) {
          // One loop per aggregation over each EVERY items. A loop over every item in this async
          // function made V8 compile it again and again (deoptimised by the next batch's objects,
          // 40-50 ms of compiling each time, beside bench row "cities-in-area, 1-degree box, 10M").
          for (let from = 0; from < table.length; from += EVERY) {
            await ctx.checkpoint();
            const to = Math.min(from + EVERY, table.length);
            for (let k = 0; k < single.accs.length; k++) single.accs[k]!.addRange(fields[k] ?? null, from, to);
          }
          continue;
        }
        const keys = new Map(step.group_by.map((f) => [f, columnValues(table, f)]));
        for (let i = 0; i < table.length; i++) {
          if (i % EVERY === 0) await ctx.checkpoint();
          const g = groupOf((f) => keys.get(f)?.[i]);
          for (let k = 0; k < g.accs.length; k++) g.accs[k]!.addAt(fields[k] ?? null, i);
        }
        continue;
      }
      const list = items.kind === "rows" ? tableRows(items) : items.features.map(props);
      for (let i = 0; i < list.length; i++) {
        if (i % EVERY === 0) await ctx.checkpoint();
        const p = list[i]!;
        const g = single ?? groupOf((f) => p[f]);
        for (let k = 0; k < g.accs.length; k++) g.accs[k]!.add(p);
      }
    }
    const rows = [...groups.values()].map((g) => accValues(g.accs, { ...g.key }));
    return tableFromRows([...step.group_by, ...step.aggregations.map((a) => a.as)], rows);
  },
});
