/**
 * Spatial indexes over a features array, cached per array.
 *
 * The worker keeps a loaded layer's features array and passes the same array to many runs, so
 * indexes are cached in WeakMaps keyed by the array (dropped with the array). Arrays must not
 * be mutated after indexing (the engine never mutates its inputs).
 *
 * - `geometryIndex`: a Flatbush of geometry boxes, MultiPolygons split into their polygons so
 *   that a wide one (a country with overseas territories) yields tight boxes.
 * - `pointIndex`: a KDBush of one representative point per feature, for radius and nearest
 *   queries whose distances equal Turf `distance` to the last bit.
 *
 * Bench row (CODE_STYLE.md "Performance code") of the memo, the cosines kept per point and the
 * scratch arrays of `pointsWithinKm`: "nearby-cities 5,000 rows r=30 km, engine only"; its 5,000
 * radius queries over the cities took 2.7x as long with plain arrays, a comparator sort and
 * Turf's cosines per candidate, and `nearestWithinKm` after them 40x without the memo.
 */
import { bbox as turfBbox, centroid } from "@turf/turf";
import { around } from "geokdbush";
import Flatbush from "flatbush";
import KDBush from "kdbush";
import type { Feature, Geometry, Position } from "geojson";

/** A GeoJSON feature whose geometry may be null (RFC 7946 §3.2). */
type TFeature = Feature<Geometry | null>;

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
  /** Each entry's box (Turf bbox), in `entries` order: minX, minY, maxX, maxY in turn. */
  boxes: Float64Array;
}

export interface TPointIndex {
  /** Null when no feature has a geometry. */
  index: KDBush | null;
  /** Feature index of each indexed point (by KDBush id). */
  feature: Int32Array;
  /** lon/lat of each indexed point (by KDBush id), interleaved. */
  coords: Float64Array;
  /** Math.cos of each indexed point's latitude in radians (by KDBush id), as `haversineKm` computes it. */
  cosLat: Float64Array;
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
  const boxes = new Float64Array(4 * entries.length);
  entries.forEach((e, k) => boxes.set(turfBbox(e.geometry), 4 * k));
  let index: Flatbush | null = null;
  if (entries.length > 0) {
    index = new Flatbush(entries.length);
    for (let k = 0; k < entries.length; k++) index.add(boxes[4 * k], boxes[4 * k + 1], boxes[4 * k + 2], boxes[4 * k + 3]);
    index.finish();
  }
  const out = { index, entries, boxes };
  geometryCache.set(features, out);
  return out;
}

/** Entries a point query reads box by box: one node of the tree (Flatbush's default node size), whose search would read the same boxes. */
const SCAN_ENTRIES = 16;

/**
 * Whether `test` holds for an entry (its index in `entries`) whose box holds the point (x, y).
 * Up to `SCAN_ENTRIES` entries (an area, a few polygons) are read from `boxes` in order: a tree
 * search allocates its queue and result arrays for each query, about 7 MB per run for the 11,851
 * points of the bench row `cities-in-area, 1-degree box, 10M-point layer` against its one area.
 */
export function someEntryAt(gi: TGeometryIndex, x: number, y: number, test: (entry: number) => boolean): boolean {
  const { entries, boxes, index } = gi;
  if (entries.length <= SCAN_ENTRIES) {
    for (let k = 0; k < entries.length; k++) {
      if (x >= boxes[4 * k]! && y >= boxes[4 * k + 1]! && x <= boxes[4 * k + 2]! && y <= boxes[4 * k + 3]! && test(k)) return true;
    }
    return false;
  }
  return index !== null && index.search(x, y, x, y).some(test);
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
  const cosLat = new Float64Array(feature.length);
  for (let k = 0; k < feature.length; k++) cosLat[k] = cosOfLatitude(coords[2 * k + 1]!);
  const out = { index, feature: Int32Array.from(feature), coords: Float64Array.from(coords), cosLat };
  pointCache.set(features, out);
  return out;
}

/** Mean Earth radius in km, as Turf uses it (helpers `earthRadius` = 6371008.8 m). */
export const EARTH_RADIUS_KM = 6371.0088;

function toRadians(degrees: number): number {
  // Turf's degreesToRadians, operation for operation; `degrees % 360` is `degrees` itself
  // below 360 in magnitude (exactly, -0 included), and skipping it skips a call into the C
  // library (fmod) in the loop of `queryWithin`.
  return ((degrees > -360 && degrees < 360 ? degrees : degrees % 360) * Math.PI) / 180;
}

/** Math.cos of a latitude in radians, as `haversineKm` takes it. */
function cosOfLatitude(lat: number): number {
  return Math.cos(toRadians(lat));
}

/** Haversine distance in km between two lon/lat positions: exactly Turf `distance(a, b)` in km. */
export function haversineKm(lon1: number, lat1: number, lon2: number, lat2: number): number {
  return haversineWithCos(lon1, lat1, lon2, lat2, cosOfLatitude(lat1), cosOfLatitude(lat2));
}

/**
 * `haversineKm` with the cosines of both latitudes given (`cosOfLatitude`), so that a loop
 * computes each once: Turf's formula, operation for operation (the same bits).
 */
function haversineWithCos(lon1: number, lat1: number, lon2: number, lat2: number, cos1: number, cos2: number): number {
  const dLat = toRadians(lat2 - lat1);
  const dLon = toRadians(lon2 - lon1);
  const a = Math.pow(Math.sin(dLat / 2), 2) + Math.pow(Math.sin(dLon / 2), 2) * cos1 * cos2;
  return 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a)) * (6371008.8 / 1e3);
}

/** Targets of a radius query, nearest first: feature indexes and distances in km. */
export interface TNeighbours {
  feature: Int32Array;
  km: Float64Array;
}

const EMPTY: TNeighbours = { feature: new Int32Array(0), km: new Float64Array(0) };
interface TMemo {
  byPos: WeakMap<Position, TNeighbours>;
  /** Neighbours that may still be memoised for this index and radius. */
  budget: number;
}
const neighbourCache = new WeakMap<TPointIndex, Map<number, TMemo>>();
/**
 * Neighbours memoised per (index, radius) at most: a memo saves repeating a query in the next
 * step, but a dense all-pairs query (every city against every city within 500 km) must not
 * keep billions of pairs alive. 2M neighbours are about 24 MB.
 */
const MEMO_BUDGET = 2_000_000;

/**
 * The indexed points within `maxKm` (haversine, inclusive) of (lon, lat), nearest first (ties
 * by feature index). The candidates come from the lon/lat box of the spherical cap of angular
 * radius r = maxKm / R: latitudes lat ± r, longitudes lon ± asin(sin r / cos lat) (whole
 * circle when the cap reaches a pole), split in two at the antimeridian; the box is widened by
 * a relative 1e-9 so that rounding never loses a point. Results for the same position object,
 * index and radius are memoised (steps of one flow often query the same places), which is why
 * the returned arrays must not be modified. The memo holds at most `MEMO_BUDGET` neighbours per
 * index and radius; once that is spent it starts over empty (older entries are dropped).
 */
export function pointsWithinKm(idx: TPointIndex, pos: Position, maxKm: number): TNeighbours {
  if (!idx.index || !(maxKm >= 0)) return EMPTY;
  let byKm = neighbourCache.get(idx);
  if (!byKm) neighbourCache.set(idx, (byKm = new Map()));
  let memo = byKm.get(maxKm);
  if (!memo) byKm.set(maxKm, (memo = { byPos: new WeakMap(), budget: MEMO_BUDGET }));
  let hit = memo.byPos.get(pos);
  if (!hit) {
    hit = queryWithin(idx, pos, maxKm);
    if (memo.budget < hit.feature.length && hit.feature.length < MEMO_BUDGET) {
      // Spent: start over. The index of a cached layer lives across runs, and the positions of
      // earlier runs are gone (a WeakMap forgets them) but their share of the budget was never
      // given back; without this, every run after the first few repeated all its queries.
      byKm.set(maxKm, (memo = { byPos: new WeakMap(), budget: MEMO_BUDGET }));
    }
    if (memo.budget >= hit.feature.length) {
      memo.budget -= hit.feature.length + 1;
      memo.byPos.set(pos, hit);
    }
  }
  return hit;
}

function queryWithin(idx: TPointIndex, pos: Position, maxKm: number): TNeighbours {
  if (!idx.index) return EMPTY;
  const lon = pos[0]!;
  const lat = pos[1]!;
  const r = maxKm / EARTH_RADIUS_KM;
  const rDeg = ((r * 180) / Math.PI) * (1 + 1e-9) + 1e-9;
  const latMin = lat - rDeg;
  const latMax = lat + rDeg;
  const boxes: [number, number, number, number][] = [];
  const sinR = Math.sin(Math.min(r, Math.PI / 2));
  const cosLat = Math.cos((lat * Math.PI) / 180);
  if (latMax >= 90 || latMin <= -90 || r >= Math.PI / 2 || sinR >= cosLat) {
    boxes.push([-180, latMin, 180, latMax]);
  } else {
    const dLon = ((Math.asin(sinR / cosLat) * 180) / Math.PI) * (1 + 1e-9) + 1e-9;
    const west = lon - dLon;
    const east = lon + dLon;
    if (dLon >= 180) boxes.push([-180, latMin, 180, latMax]);
    else if (west < -180) boxes.push([west + 360, latMin, 180, latMax], [-180, latMin, east, latMax]);
    else if (east > 180) boxes.push([west, latMin, 180, latMax], [-180, latMin, east - 360, latMax]);
    else boxes.push([west, latMin, east, latMax]);
  }
  // Candidates go into scratch typed arrays (no object, no JS array per query: a nearby-cities
  // run makes 5,000 queries that keep ~50 of ~100 candidates each), then are insertion-sorted
  // in place, which beats a comparator sort for lists this short; long lists use an index sort.
  let n = 0;
  const seen = boxes.length > 1 ? new Set<number>() : null;
  // haversineKm with the query's cos(lat) computed once and each point's taken from the index:
  // the trigonometry was most of a query's time.
  const cosLat1 = cosOfLatitude(lat);
  const { coords } = idx;
  const cosLatOf = idx.cosLat;
  for (const [x0, y0, x1, y1] of boxes) {
    for (const id of idx.index.range(x0, y0, x1, y1)) {
      if (seen) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      const km = haversineWithCos(lon, lat, coords[2 * id]!, coords[2 * id + 1]!, cosLat1, cosLatOf[id]!);
      if (km <= maxKm) {
        if (n === scratchIds.length) growScratch();
        scratchIds[n] = idx.feature[id]!;
        scratchKms[n] = km;
        n++;
      }
    }
  }
  const out: TNeighbours = { feature: new Int32Array(n), km: new Float64Array(n) };
  if (n <= INSERTION_SORT_MAX) {
    const f = out.feature;
    const k = out.km;
    for (let i = 0; i < n; i++) {
      const id = scratchIds[i]!;
      const km = scratchKms[i]!;
      let j = i - 1;
      while (j >= 0 && (k[j]! > km || (k[j] === km && f[j]! > id))) {
        f[j + 1] = f[j]!;
        k[j + 1] = k[j]!;
        j--;
      }
      f[j + 1] = id;
      k[j + 1] = km;
    }
    return out;
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => scratchKms[a]! - scratchKms[b]! || scratchIds[a]! - scratchIds[b]!);
  for (let i = 0; i < n; i++) {
    out.feature[i] = scratchIds[order[i]!]!;
    out.km[i] = scratchKms[order[i]!]!;
  }
  return out;
}

/** Lists up to this long are insertion-sorted (by km, then feature index). */
const INSERTION_SORT_MAX = 64;

/** Candidates kept by the query running now (queries never overlap: they are synchronous). */
let scratchIds = new Int32Array(1024);
let scratchKms = new Float64Array(1024);

function growScratch(): void {
  const ids = new Int32Array(scratchIds.length * 2);
  const kms = new Float64Array(scratchKms.length * 2);
  ids.set(scratchIds);
  kms.set(scratchKms);
  scratchIds = ids;
  scratchKms = kms;
}

/**
 * The nearest indexed point within `maxKm` of `pos`, or null. Grows the search radius from a
 * small one (geokdbush k-nearest on the sphere first, which is cheap for one neighbour), then
 * confirms the exact Turf distance; ties are broken by the lower feature index, as in
 * `pointsWithinKm`.
 */
export function nearestWithinKm(idx: TPointIndex, pos: Position, maxKm: number): { feature: number; km: number } | null {
  if (!idx.index) return null;
  const known = neighbourCache.get(idx)?.get(maxKm)?.byPos.get(pos);
  if (known) return known.feature.length ? { feature: known.feature[0]!, km: known.km[0]! } : null;
  // geokdbush uses R = 6371 km, Turf 6371.0088 km: take the geokdbush winner only as a hint of the
  // distance, then collect every point up to that distance (plus rounding) exactly.
  const [id] = around(idx.index, pos[0]!, pos[1]!, 1, maxKm * 1.0001 + 1e-9);
  if (id === undefined) return null;
  const hint = haversineKm(pos[0]!, pos[1]!, idx.coords[2 * id]!, idx.coords[2 * id + 1]!);
  if (hint > maxKm * (1 + 1e-6) + 1e-9) return null;
  const list = queryWithin(idx, pos, Math.min(maxKm, hint * (1 + 1e-6) + 1e-9));
  return list.feature.length ? { feature: list.feature[0]!, km: list.km[0]! } : null;
}
