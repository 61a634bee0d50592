/** The runner of the `length` step; its definition (options, sources, output, docs) is in definition.ts. */
import { length as turfLength } from "@turf/turf";
import { addGeometryMeasure } from "@/lib/steps/items";
import { SAME_BOXES } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { lengthStep } from "@/lib/steps/length/definition";

const LENGTH_UNITS = { m: "meters", km: "kilometers", mi: "miles" } as const;

export const lengthRunner = defineRunner(lengthStep, {
  ...SAME_BOXES,
  run: (step, ctx) => addGeometryMeasure(ctx, step.source, step.field, (f) => turfLength(f, { units: LENGTH_UNITS[step.unit] })),
});
