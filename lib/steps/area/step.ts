/** The runner of the `area` step; its definition (options, sources, output, docs) is in definition.ts. */
import { area as turfArea } from "@turf/turf";
import { addGeometryMeasure } from "@/lib/steps/items";
import { SAME_BOXES } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { areaStep } from "@/lib/steps/area/definition";

const AREA_FACTOR = { m2: 1, km2: 1e-6, ha: 1e-4 } as const;

export const areaRunner = defineRunner(areaStep, {
  ...SAME_BOXES,
  run: (step, ctx) => addGeometryMeasure(ctx, step.source, step.field, (f) => turfArea(f.geometry) * AREA_FACTOR[step.unit]),
});
