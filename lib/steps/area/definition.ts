/** The `area` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { withField } from "@/lib/steps/columns";
import { z } from "zod";
import { ZRef, ZField, ACCEPTS_PARAM } from "@/lib/steps/options";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";

export const areaStep = defineStep({
  type: "area",
  label: "Area",
  summary: "Add the spherical area of each feature (Turf area) in `unit`",
  category: "spatial",
  options: { source: ZRef, field: ZField.default("area"), unit: z.enum(["m2", "km2", "ha"]).default("km2") },
  params: { unit: ACCEPTS_PARAM.string },
  inputs: [{ key: "source", accepts: ACCEPTS.features }],
  output: "features",
  columns: (step, [src]) => withField(src, step.field ?? "area", "number"),
  docs: {
    options: "`field` (default `area`); `unit` *param* `m2` | `km2` (default) | `ha`",
    semantics: "Spherical area (Turf `area`); holes subtract; null for null geometry, 0 for points and lines",
  },
});
