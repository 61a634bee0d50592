/** The `dissolve` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { NO_COLUMNS, typeOf } from "@/lib/steps/columns";
import { ZRef, ZField } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const dissolve = defineStep({
  type: "dissolve",
  label: "Dissolve",
  summary: "Union the polygons, per value of `field` if given (Turf union)",
  category: "spatial",
  options: { source: ZRef, field: ZField.optional() },
  columnOptions: { field: "source" },
  inputs: [{ key: "source", accepts: ACCEPTS.features }],
  output: "features",
  columns: (step, [src]) => (step.field === undefined ? NO_COLUMNS : { fields: [{ name: step.field, type: typeOf(src, step.field) }], open: false }),
  docs: {
    options: "`field`, optional",
    semantics: "Union of the polygons (Turf `union`), one feature per value of `field` (or one in all); non-polygons skipped",
  },
});
