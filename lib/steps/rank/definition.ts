/** The `rank` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { ZRef, ZField } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const rank = defineStep({
  type: "rank",
  label: "Rank",
  summary: "Add a 1-based position `field` in the current order",
  category: "attribute",
  options: { source: ZRef, field: ZField.default("rank") },
  inputs: [{ key: "source", accepts: ACCEPTS.any }],
  output: "same",
  columns: (step, [src]) => {
    const name = step.field ?? "rank";
    return { fields: [{ name, type: "integer" }, ...src.fields.filter((f) => f.name !== name)], open: src.open };
  },
  docs: {
    options: "`field` (default `rank`)",
    semantics: "Add the 1-based position as the first column",
  },
});
