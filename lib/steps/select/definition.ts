/**
 * The `select` step. Keep (and rename) the listed fields, in that order; missing fields become null.
 * The definition (see lib/steps/define-step.ts: browser-safe, no runner code); the runner is in step.ts.
 * Its row in the step reference of docs/flow-format.md is generated from `docs` below.
 */
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
