/**
 * Spatial indexes over a features array, cached per array.
 *
 * The worker keeps a loaded layer's features array and passes the same array to many runs, so
 * indexes are cached in WeakMaps keyed by the array (dropped with the array). Arrays must not
 * be mutated after indexing (the engine never mutates its inputs).
 *
 * - `geometryIndex`: a Flatbush (packed Hilbert R-tree, https://github.com/mourner/flatbush) of
 *   geometry bounding boxes. MultiPolygons are split into their polygons so that a wide
 *   multipolygon (e.g. a country with overseas territories) yields tight boxes.
 * - `pointIndex`: a KDBush (static k-d tree) of one representative point per feature (the
 *   point itself, or the Turf centroid for other geometries), for geokdbush `around` queries
 *   (great-circle k-nearest neighbours, https://github.com/mourner/geokdbush).
 */
import { bbox as turfBbox, centroid } from "@turf/turf";
import Flatbush from "flatbush";
import KDBush from "kdbush";
import type { Geometry, Position } from "geojson";
import type { TFeature } from "./types";

export interface TGeometryEntry {
  /** Index of the feature in the indexed array. */
  feature: number;
  /** The feature's geometry, or one polygon of a MultiPolygon. */
  geometry: Geometry;
}

export interface TGeometryIndex {
  /** Null when no feature has a geometry. */
  index: Flatbush | null;
  entries: TGeometryEntry[];
}

export interface TPointIndex {
  /** Null when no feature has a geometry. */
  index: KDBush | null;
  /** Feature index of each indexed point (by KDBush id). */
  feature: Int32Array;
  /** lon/lat of each indexed point (by KDBush id), interleaved. */
  coords: Float64Array;
}

const geometryCache = new WeakMap<readonly TFeature[], TGeometryIndex>();
const pointCache = new WeakMap<readonly TFeature[], TPointIndex>();

/** Flatbush of the features' geometry boxes (MultiPolygons split into parts), cached. */
export function geometryIndex(features: readonly TFeature[]): TGeometryIndex {
  const cached = geometryCache.get(features);
  if (cached) return cached;
  const entries: TGeometryEntry[] = [];
  for (let i = 0; i < features.length; i++) {
    const g = features[i].geometry;
    if (!g) continue;
    if (g.type === "MultiPolygon") {
      for (const coordinates of g.coordinates) entries.push({ feature: i, geometry: { type: "Polygon", coordinates } });
    } else entries.push({ feature: i, geometry: g });
  }
  let index: Flatbush | null = null;
  if (entries.length > 0) {
    index = new Flatbush(entries.length);
    for (const e of entries) {
      const [x0, y0, x1, y1] = turfBbox(e.geometry);
      index.add(x0, y0, x1, y1);
    }
    index.finish();
  }
  const out = { index, entries };
  geometryCache.set(features, out);
  return out;
}

/** The point that stands for a geometry in distance queries: itself, or its Turf centroid. */
export function representativePoint(g: Geometry | null): Position | null {
  if (!g) return null;
  if (g.type === "Point") return g.coordinates;
  try {
    return centroid(g).geometry.coordinates;
  } catch {
    return null;
  }
}

/** KDBush of one representative point per feature, cached. */
export function pointIndex(features: readonly TFeature[]): TPointIndex {
  const cached = pointCache.get(features);
  if (cached) return cached;
  const feature: number[] = [];
  const coords: number[] = [];
  for (let i = 0; i < features.length; i++) {
    const p = representativePoint(features[i].geometry);
    if (!p || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) continue;
    feature.push(i);
    coords.push(p[0], p[1]);
  }
  let index: KDBush | null = null;
  if (feature.length > 0) {
    index = new KDBush(feature.length);
    for (let k = 0; k < feature.length; k++) index.add(coords[2 * k], coords[2 * k + 1]);
    index.finish();
  }
  const out = { index, feature: Int32Array.from(feature), coords: Float64Array.from(coords) };
  pointCache.set(features, out);
  return out;
}
