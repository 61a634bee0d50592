/** The runner of the `sort` step; its definition (options, sources, output, docs) is in definition.ts. */
import { asItems, props } from "@/lib/steps/items";
import { columnValues, takeRows } from "@/lib/steps/dataset";
import { SAME_BOXES } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { sort } from "@/lib/steps/sort/definition";

/** Orders values: numbers (numeric), then text (code-unit order), then booleans (false < true), then other; null/undefined last. */
function rankOfType(v: unknown): number {
  if (typeof v === "number") return Number.isNaN(v) ? 4 : 0;
  if (typeof v === "string") return 1;
  if (typeof v === "boolean") return 2;
  if (v === null || v === undefined) return 5;
  return 3;
}

function compareValues(a: unknown, b: unknown): number {
  const ta = rankOfType(a);
  const tb = rankOfType(b);
  if (ta !== tb || ta > 3) return ta - tb;
  // Numbers, text, booleans by `<`; other values by their JSON text.
  const [x, y] = ta === 3 ? [JSON.stringify(a), JSON.stringify(b)] : [a as number, b as number];
  return x < y ? -1 : x > y ? 1 : 0;
}

export const sortRunner = defineRunner(sort, {
  // A stable sort orders items by (key, position): the items of a subsequence keep their order among themselves.
  ...SAME_BOXES,
  run: async (step, ctx) => {
    const items = asItems(ctx.get(step.source));
    const keys: ArrayLike<unknown> =
      items.kind === "rows" ? (columnValues(items, step.field) ?? new Array<unknown>(items.length)) : items.features.map((f) => props(f)[step.field]);
    await ctx.checkpoint();
    const sign = step.order === "desc" ? -1 : 1;
    const idx = Array.from(keys, (_, i) => i);
    idx.sort((a, b) => {
      const ka = keys[a];
      const kb = keys[b];
      const na = ka === null || ka === undefined;
      const nb = kb === null || kb === undefined;
      if (na || nb) return na === nb ? a - b : na ? 1 : -1; // nulls last in both orders
      return sign * compareValues(ka, kb) || a - b;
    });
    if (items.kind === "rows") return takeRows(items, idx);
    return { kind: "features", features: idx.map((i) => items.features[i]) };
  },
});
