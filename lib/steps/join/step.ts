/**
 * The `join` step. Attribute join: copy `fields` of the first `right` item whose `right_field` equals `left_field`.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { appendFields, pickedFields } from "@/lib/steps/columns";
import { z } from "zod";
import { asItems, props, specAs, pick, columnsOf, mapItems, type TItems } from "@/lib/steps/items";
import { ZRef, ZField, ZFieldSpec, ACCEPTS_PARAM, type TFieldSpec } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const join = defineStep({
  type: "join",
  label: "Attribute join",
  summary: "Attribute join: copy `fields` of the first `right` item whose `right_field` equals `left_field`",
  category: "attribute",
  options: {
    left: ZRef,
    right: ZRef,
    left_field: ZField,
    right_field: ZField,
    fields: z.array(ZFieldSpec).optional(),
    how: z.enum(["left", "inner"]).default("left"),
  },
  params: { how: ACCEPTS_PARAM.string },
  columnOptions: { left_field: "left", right_field: "right", fields: "right" },
  inputs: [
    { key: "left", accepts: ACCEPTS.any },
    { key: "right", accepts: ACCEPTS.any },
  ],
  output: "same",
  columns: (step, [left, right]) =>
    step.fields
      ? appendFields(left, pickedFields(right, step.fields))
      : appendFields(
          left,
          right.fields.filter((f) => f.name !== step.right_field),
          left.open || right.open,
        ),
  docs: {
    sources: "`left`, `right` (any) → same as left",
    options: "`left_field`, `right_field`; `fields`: field specs (default: all right fields but the key); `how` *param* `left` (default) | `inner`",
    semantics:
      "Attribute join: copy `fields` of the first right item whose `right_field` equals `left_field` (compared as text); unmatched: nulls (`left`) or dropped (`inner`)",
  },
  // Each output item is a left item with more properties, in left order; any right item may match.
  extent: (step, sources) => sources.extent(step.left),
  demand: (step, box) => ({ left: box }),
  run: async (step, ctx) => {
    const left = asItems(ctx.get(step.left));
    const right = asItems(ctx.get(step.right));
    const rightList: Record<string, unknown>[] = right.kind === "rows" ? right.rows : right.features.map(props);
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
          ? { kind: "rows", columns: left.columns, rows: left.rows.filter((r) => match(r)) }
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
