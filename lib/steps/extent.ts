/**
 * Boxes for planning (lib/engine/plan-boxes.ts): the box of geometries and data, the union of
 * boxes, a box grown by a distance in km, and the `extent` / `demand` declarations most steps
 * share (see `TRunnerSpec` in lib/steps/define-step.ts for what they mean).
 *
 * Boxes are `TBox` (WGS 84 degrees, west <= east, never wrapping the antimeridian). Distances
 * follow the haversine distance on a sphere of R = 6371.0088 km (lib/geo/spatial-index.ts),
 * where one degree of a great circle is 111.195 km: a box grown by km / 111.0 degrees holds
 * every point within km of it (with 0.18 % to spare for rounding).
 */
import { bbox as turfBbox } from "@turf/turf";
import type { Geometry } from "geojson";
import type { TBox, TDataset, TFeature } from "@/lib/steps/dataset";
import type { TPlanSources } from "@/lib/steps/define-step";

/** Km per degree of latitude taken for growing boxes: less than the 111.195 km of the sphere, so the box errs on the large side. */
export const KM_PER_DEGREE = 111.0;

/** The box of one geometry (Turf `bbox`), null for a null geometry or one without coordinates. */
export function geometryBox(g: Geometry | null): TBox | null {
  if (!g) return null;
  const [w, s, e, n] = turfBbox(g);
  return Number.isFinite(w) && Number.isFinite(s) && Number.isFinite(e) && Number.isFinite(n) ? [w!, s!, e!, n!] : null;
}

/** The box of every non-null geometry of `features` (null when there is none). */
export function featuresBox(features: readonly TFeature[]): TBox | null {
  let out: TBox | null = null;
  for (const f of features) {
    const b = geometryBox(f.geometry);
    if (b) out = out ? unionBox(out, b) : b;
  }
  return out;
}

/** The box of a dataset's geometries: an area's, a layer's features'; null for a table (no geometry) or an empty layer. */
export function datasetBox(ds: TDataset): TBox | null {
  if (ds.kind === "area") return geometryBox(ds.geometry);
  if (ds.kind === "features") return featuresBox(ds.features);
  return null;
}

/** The smallest box holding both. */
export function unionBox(a: TBox, b: TBox): TBox {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/** Whether two boxes share a point (edges included). */
export function boxesMeet(a: TBox, b: TBox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/**
 * The smaller (by area in square degrees) of two boxes that each hold every item needed, null
 * meaning "everything". Not their intersection: an item whose box meets both boxes need not
 * meet their intersection (a long line), and a reader takes one box.
 */
export function smallerBox(a: TBox | null, b: TBox | null): TBox | null {
  if (a === null) return b;
  if (b === null) return a;
  const area = (x: TBox) => (x[2] - x[0]) * (x[3] - x[1]);
  return area(b) < area(a) ? b : a;
}

/**
 * `box` grown by `km` on every side: it holds every point within `km` (haversine) of a point of
 * `box`. Latitudes by km / 111.0 degrees (clamped to ±90); longitudes by that divided by the cos
 * of the highest |latitude| of the grown box, or the whole -180..180 when the grown box reaches
 * a pole or would wrap the antimeridian. Null (unknown) stays null.
 */
export function growBoxKm(box: TBox | null, km: number): TBox | null {
  if (box === null) return null;
  const dLat = km / KM_PER_DEGREE;
  const south = Math.max(-90, box[1] - dLat);
  const north = Math.min(90, box[3] + dLat);
  const highest = Math.max(Math.abs(south), Math.abs(north));
  const dLon = dLat / Math.cos((highest * Math.PI) / 180);
  const west = box[0] - dLon;
  const east = box[2] + dLon;
  if (highest >= 90 || !(dLon < 180) || west < -180 || east > 180) return [-180, south, 180, north];
  return [west, south, east, north];
}

/** `extent` of a step whose output items keep their source item's geometry (or one inside its box): the source's extent. */
export function sourceExtent(step: { source: string }, sources: TPlanSources): TBox | null {
  return sources.extent(step.source);
}

/** `demand` of a step whose output item's box lies inside its source item's box, item for item, in order: the same box of its source. */
export function sameDemand(_step: unknown, box: TBox | null): Record<string, TBox | null> {
  return { source: box };
}

/** `extent` and `demand` of a step whose output items each lie inside their source item's box (`sourceExtent`, `sameDemand`). */
export const SAME_BOXES = { extent: sourceExtent, demand: sameDemand };
