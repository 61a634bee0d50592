/** The runner of the `join` step; its definition (options, sources, output, docs) is in definition.ts. */
import { asItems, props, specAs, pick, columnsOf, mapItems, type TItems } from "@/lib/steps/items";
import type { TFieldSpec } from "@/lib/steps/options";
import { tableRows, takeRows } from "@/lib/steps/dataset";
import { defineRunner } from "@/lib/steps/define-step";
import { join } from "@/lib/steps/join/definition";

export const joinRunner = defineRunner(join, {
  // Each output item is a left item with more properties, in left order; any right item may match.
  extent: (step, sources) => sources.extent(step.left),
  demand: (step, box) => ({ left: box }),
  run: async (step, ctx) => {
    const left = asItems(ctx.get(step.left));
    const right = asItems(ctx.get(step.right));
    const rightList: Record<string, unknown>[] = right.kind === "rows" ? tableRows(right) : right.features.map(props);
    const byKey = new Map<string, Record<string, unknown>>();
    for (const r of rightList) {
      const k = r[step.right_field];
      if (k === null || k === undefined) continue;
      if (!byKey.has(String(k))) byKey.set(String(k), r);
    }
    const fields: TFieldSpec[] = step.fields ?? (right.kind === "rows" ? right.columns : columnsOf(rightList)).filter((c) => c !== step.right_field);
    const newCols = fields.map(specAs);
    const empty = Object.fromEntries(newCols.map((c) => [c, null]));
    const match = (p: Record<string, unknown>) => {
      const k = p[step.left_field];
      return k === null || k === undefined ? undefined : byKey.get(String(k));
    };
    let source: TItems = left;
    if (step.how === "inner") {
      source =
        left.kind === "rows"
          ? takeRows(
              left,
              tableRows(left).flatMap((r, i) => (match(r) ? [i] : [])),
            )
          : { kind: "features", features: left.features.filter((f) => match(props(f))) };
    }
    return mapItems(
      source,
      ctx,
      (p) => {
        const m = match(p);
        return m ? pick(m, fields, { ...p }) : { ...p, ...empty };
      },
      (cols) => [...cols, ...newCols.filter((c) => !cols.includes(c))],
    );
  },
});
