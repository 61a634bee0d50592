/** The `join` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { appendFields, pickedFields } from "@/lib/steps/columns";
import { z } from "zod";
import { ZRef, ZField, ZFieldSpec, ACCEPTS_PARAM } from "@/lib/steps/options";
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
});
