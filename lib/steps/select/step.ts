/**
 * The `select` step. Keep (and rename) the listed fields, in that order; missing fields become null.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
import { pickedFields } from "@/lib/steps/columns";
import { z } from "zod";
import { asItems, pick, specAs, mapItems } from "@/lib/steps/items";
import { ZRef, ZFieldSpec } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { sameDemand, sourceExtent } from "@/lib/steps/extent";

export const select = defineStep({
  type: "select",
  label: "Select fields",
  summary: "Keep (and rename) the listed fields, in that order; missing fields become null",
  category: "attribute",
  options: { source: ZRef, fields: z.array(ZFieldSpec).min(1) },
  columnOptions: { fields: "source" },
  inputs: [{ key: "source", accepts: ACCEPTS.any }],
  output: "same",
  columns: (step, [src]) => ({ fields: pickedFields(src, step.fields), open: false }),
  docs: {
    options: "`fields`: field specs (≥ 1)",
    semantics: "Keep, rename and order fields; a missing field becomes null",
  },
  extent: sourceExtent,
  demand: sameDemand,
  batch: {
    source: "source",
    start: async (step, ctx) => {
      return (ds) =>
        mapItems(
          asItems(ds),
          ctx,
          (p) => pick(p, step.fields),
          () => step.fields.map(specAs),
        );
    },
  },
});
