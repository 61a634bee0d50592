/** The `select` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { pickedFields } from "@/lib/steps/columns";
import { z } from "zod";
import { ZRef, ZFieldSpec } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

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
});
