/**
 * Every step type's definition (browser-safe metadata, lib/steps/define-step.ts), in the order
 * of the step reference (docs/flow-format.md) and the design tool's palette. Adding a step type:
 * a folder `lib/steps/<type>/` (definition.ts with `defineStep`, step.ts with `defineRunner`,
 * tests, fixtures.ts and their expected outputs), one line here and one in lib/steps/runners.ts.
 * The flow schema (`ZStep`), flow validation, the docs and the catalogue
 * (lib/steps/catalogue.ts) all read this list; only the engine reads the runners.
 */
import { filter } from "@/lib/steps/filter/definition";
import { select } from "@/lib/steps/select/definition";
import { compute } from "@/lib/steps/compute/definition";
import { sort } from "@/lib/steps/sort/definition";
import { limit } from "@/lib/steps/limit/definition";
import { rank } from "@/lib/steps/rank/definition";
import { toTable } from "@/lib/steps/to-table/definition";
import { aggregate } from "@/lib/steps/aggregate/definition";
import { join } from "@/lib/steps/join/definition";
import { union } from "@/lib/steps/union/definition";
import { pointsFromRows } from "@/lib/steps/points-from-rows/definition";
import { spatialFilter } from "@/lib/steps/spatial-filter/definition";
import { clip } from "@/lib/steps/clip/definition";
import { spatialJoin } from "@/lib/steps/spatial-join/definition";
import { nearest } from "@/lib/steps/nearest/definition";
import { withinDistance } from "@/lib/steps/within-distance/definition";
import { distancePairs } from "@/lib/steps/distance-pairs/definition";
import { buffer } from "@/lib/steps/buffer/definition";
import { centroidStep } from "@/lib/steps/centroid/definition";
import { simplify } from "@/lib/steps/simplify/definition";
import { dissolve } from "@/lib/steps/dissolve/definition";
import { areaStep } from "@/lib/steps/area/definition";
import { lengthStep } from "@/lib/steps/length/definition";
import { bbox } from "@/lib/steps/bbox/definition";

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
