/**
 * Every step type's runner (lib/steps/define-step.ts: `defineRunner`), in the order of the
 * definitions registry (lib/steps/registry.ts; a test holds the two lists in step). Only the
 * engine (lib/engine) imports this module: runners bring Turf, the spatial indexes and the
 * expression compiler, which the browser and flow validation do without.
 */
import type { TStepRunner } from "@/lib/steps/define-step";
import { filterRunner } from "@/lib/steps/filter/step";
import { selectRunner } from "@/lib/steps/select/step";
import { computeRunner } from "@/lib/steps/compute/step";
import { sortRunner } from "@/lib/steps/sort/step";
import { limitRunner } from "@/lib/steps/limit/step";
import { rankRunner } from "@/lib/steps/rank/step";
import { toTableRunner } from "@/lib/steps/to-table/step";
import { aggregateRunner } from "@/lib/steps/aggregate/step";
import { joinRunner } from "@/lib/steps/join/step";
import { unionRunner } from "@/lib/steps/union/step";
import { pointsFromRowsRunner } from "@/lib/steps/points-from-rows/step";
import { spatialFilterRunner } from "@/lib/steps/spatial-filter/step";
import { clipRunner } from "@/lib/steps/clip/step";
import { spatialJoinRunner } from "@/lib/steps/spatial-join/step";
import { nearestRunner } from "@/lib/steps/nearest/step";
import { withinDistanceRunner } from "@/lib/steps/within-distance/step";
import { distancePairsRunner } from "@/lib/steps/distance-pairs/step";
import { bufferRunner } from "@/lib/steps/buffer/step";
import { centroidRunner } from "@/lib/steps/centroid/step";
import { simplifyRunner } from "@/lib/steps/simplify/step";
import { dissolveRunner } from "@/lib/steps/dissolve/step";
import { areaRunner } from "@/lib/steps/area/step";
import { lengthRunner } from "@/lib/steps/length/step";
import { bboxRunner } from "@/lib/steps/bbox/step";

export const STEP_RUNNERS = [
  filterRunner,
  selectRunner,
  computeRunner,
  sortRunner,
  limitRunner,
  rankRunner,
  toTableRunner,
  aggregateRunner,
  joinRunner,
  unionRunner,
  pointsFromRowsRunner,
  spatialFilterRunner,
  clipRunner,
  spatialJoinRunner,
  nearestRunner,
  withinDistanceRunner,
  distancePairsRunner,
  bufferRunner,
  centroidRunner,
  simplifyRunner,
  dissolveRunner,
  areaRunner,
  lengthRunner,
  bboxRunner,
] as const;

const BY_TYPE = new Map<string, TStepRunner>(STEP_RUNNERS.map((r) => [r.type, r as unknown as TStepRunner]));

/** The runner of a step type (its definition's fields included), or undefined for an unknown type. */
export function stepRunner(type: string): TStepRunner | undefined {
  return BY_TYPE.get(type);
}
