/**
 * Every step type, in the order of the step reference (docs/flow-format.md) and the design
 * tool's palette. Adding a step type: a folder `lib/steps/<type>/` (step.ts with
 * `defineStep`, tests, fixtures.ts) and one line here. The flow schema (`ZStep`), flow
 * validation, the docs and the catalogue (lib/steps/catalogue.ts) all read this list.
 */
import { filter } from "@/lib/steps/filter/step";
import { select } from "@/lib/steps/select/step";
import { compute } from "@/lib/steps/compute/step";
import { sort } from "@/lib/steps/sort/step";
import { limit } from "@/lib/steps/limit/step";
import { rank } from "@/lib/steps/rank/step";
import { toTable } from "@/lib/steps/to-table/step";
import { aggregate } from "@/lib/steps/aggregate/step";
import { join } from "@/lib/steps/join/step";
import { union } from "@/lib/steps/union/step";
import { pointsFromRows } from "@/lib/steps/points-from-rows/step";
import { spatialFilter } from "@/lib/steps/spatial-filter/step";
import { clip } from "@/lib/steps/clip/step";
import { spatialJoin } from "@/lib/steps/spatial-join/step";
import { nearest } from "@/lib/steps/nearest/step";
import { withinDistance } from "@/lib/steps/within-distance/step";
import { distancePairs } from "@/lib/steps/distance-pairs/step";
import { buffer } from "@/lib/steps/buffer/step";
import { centroidStep } from "@/lib/steps/centroid/step";
import { simplify } from "@/lib/steps/simplify/step";
import { dissolve } from "@/lib/steps/dissolve/step";
import { areaStep } from "@/lib/steps/area/step";
import { lengthStep } from "@/lib/steps/length/step";
import { bbox } from "@/lib/steps/bbox/step";

export const STEP_DEFINITIONS = [
  filter,
  select,
  compute,
  sort,
  limit,
  rank,
  toTable,
  aggregate,
  join,
  union,
  pointsFromRows,
  spatialFilter,
  clip,
  spatialJoin,
  nearest,
  withinDistance,
  distancePairs,
  buffer,
  centroidStep,
  simplify,
  dissolve,
  areaStep,
  lengthStep,
  bbox,
] as const;
