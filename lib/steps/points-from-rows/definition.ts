/** The `points_from_rows` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { ZRef, ZField } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const pointsFromRows = defineStep({
  type: "points_from_rows",
  label: "Points from rows",
  summary: "A Point per row from `lon`/`lat` columns (null geometry when not valid)",
  category: "attribute",
  options: { source: ZRef, lon: ZField, lat: ZField },
  columnOptions: { lon: "source", lat: "source" },
  inputs: [{ key: "source", accepts: ACCEPTS.rows }],
  output: "features",
  docs: {
    options: "`lon`, `lat`: column names",
    semantics: "A Point per row from numbers or numeric text; null geometry when missing, not finite or out of range; all columns become properties",
  },
});
