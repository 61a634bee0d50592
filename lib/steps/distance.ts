/**
 * The loop shared by the distance steps (nearest, within_distance, distance_pairs): the
 * source features, a point index of the target features (lib/geo/spatial-index.ts), and
 * each source feature's representative point (null when it has no geometry), with a
 * cancellation check every 16 sources (each one queries the index).
 */
import type { Position } from "geojson";
import { pointIndex, representativePoint, type TPointIndex } from "@/lib/geo/spatial-index";
import type { TBox, TFeature } from "@/lib/steps/dataset";
import type { TPlanSources, TStepContext } from "@/lib/steps/define-step";
import { growBoxKm } from "@/lib/steps/extent";
import { asFeatures } from "@/lib/steps/items";

/**
 * The box of the targets a distance step needs: the source's box grown by `max_km`. A target
 * within `max_km` of a source's point (the point itself, or the centroid of another geometry,
 * inside the source's box) has its own point, and so its box, in there.
 */
export function targetDemand(step: { source: string; max_km: number }, sources: TPlanSources): TBox | null {
  return growBoxKm(sources.extent(step.source), step.max_km);
}

/** The source and target features of a distance step, and a point index of the targets. */
export function sourcesAndTargets(ctx: TStepContext, step: { source: string; target: string }): { source: TFeature[]; target: TFeature[]; index: TPointIndex } {
  const source = asFeatures(ctx.get(step.source)).features;
  const target = asFeatures(ctx.get(step.target), "`target` source").features;
  return { source, target, index: pointIndex(target) };
}

export async function eachSourcePoint(ctx: TStepContext, source: TFeature[], visit: (f: TFeature, pos: Position | null, i: number) => void): Promise<void> {
  for (let i = 0; i < source.length; i++) {
    if (i % 16 === 0) await ctx.checkpoint();
    visit(source[i], representativePoint(source[i].geometry), i);
  }
}
