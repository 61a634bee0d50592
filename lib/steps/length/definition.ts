/** The `length` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { withField } from "@/lib/steps/columns";
import { z } from "zod";
import { ZRef, ZField, ACCEPTS_PARAM } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const lengthStep = defineStep({
  type: "length",
  label: "Length",
  summary: "Add the geodesic length of lines / perimeter of polygons (Turf length) in `unit`",
  category: "spatial",
  options: { source: ZRef, field: ZField.default("length"), unit: z.enum(["m", "km", "mi"]).default("km") },
  params: { unit: ACCEPTS_PARAM.string },
  inputs: [{ key: "source", accepts: ACCEPTS.features }],
  output: "features",
  columns: (step, [src]) => withField(src, step.field ?? "length", "number"),
  docs: {
    options: "`field` (default `length`); `unit` *param* `m` | `km` (default) | `mi`",
    semantics: "Geodesic length of lines, perimeter of polygons (all rings); null for null geometry",
  },
});
