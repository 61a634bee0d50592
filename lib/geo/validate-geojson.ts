/**
 * Structural validation of caller-supplied GeoJSON (RFC 7946) with a path for every fault.
 *
 * Checks (RFC 7946 §3): object types (`FeatureCollection`, `Feature`, the seven geometry
 * types), required members (`features`, `geometry` — may be null — and `properties` — object
 * or null), positions (2 or 3 finite numbers, longitude within -180..180 and latitude within
 * -90..90 degrees, WGS 84), LineStrings with >= 2 positions, linear rings closed with >= 4
 * positions (§3.1.6). Ring winding order is not enforced (§3.1.6 says parsers SHOULD NOT reject).
 *
 * `validateArea` additionally requires a valid simple polygon (OGC Simple Features, the rules of
 * lib/geo/polygon-problems.ts read on the plane as given): at most `MAX_AREA_POSITIONS`
 * positions, rings of at least 3 distinct positions and a non-zero planar area (degrees²),
 * no ring crossing or touching itself or another, holes inside the outer ring and outside
 * each other. Each fault names its ring (`["coordinates", r]`; rings crossing: `["coordinates"]`).
 *
 * Every function returns a list of faults (empty = valid), never throws. Paths are relative to
 * the value checked (e.g. `["features", 3, "geometry", "coordinates", 0, 5]`); callers prefix
 * them. To keep answers bounded, at most `MAX_GEOJSON_ERRORS` faults are listed per value; a
 * last fault with code `too_many_errors` says that more were omitted.
 */
import type { Polygon, Position } from "geojson";
import { polygonFaults, type TPolygonFault } from "./polygon-problems";

/** Most features accepted in one `geojson` input value (design.md "Validation"). */
export const MAX_GEOJSON_FEATURES = 5_000;
/**
 * Most positions in all rings of one `area` value (README "Limits"). A detailed country
 * outline of Natural Earth 1:10m has a few thousand; the check of an area this size takes a few
 * milliseconds.
 */
export const MAX_AREA_POSITIONS = 10_000;
/** Most faults listed per validated value. */
export const MAX_GEOJSON_ERRORS = 100;

export type TGeoPath = (string | number)[];

/** One fault: where (path relative to the checked value), a stable code and a message. */
export interface TGeoJsonIssue {
  path: TGeoPath;
  code:
    | "invalid_geojson"
    | "invalid_position"
    | "unclosed_ring"
    | "too_few_positions"
    | "too_many_positions"
    | "too_many_features"
    | "self_intersection"
    | "zero_area"
    | "hole_outside_shell"
    | "too_many_errors";
  message: string;
}

/** The seven RFC 7946 geometry types. */
export const GEOMETRY_TYPES = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection"] as const;

/** The faults found so far; full after `MAX_GEOJSON_ERRORS` and the `too_many_errors` that follows them. */
class Collector {
  issues: TGeoJsonIssue[] = [];
  get full(): boolean {
    return this.issues.length > MAX_GEOJSON_ERRORS;
  }
  add(path: TGeoPath, code: TGeoJsonIssue["code"], message: string): void {
    if (this.issues.length < MAX_GEOJSON_ERRORS) this.issues.push({ path, code, message });
    else if (!this.full) this.issues.push({ path: [], code: "too_many_errors", message: `More than ${MAX_GEOJSON_ERRORS} faults; the rest are not listed` });
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/**
 * A position element that is not a finite number, as messages name it: its kind, or the value
 * itself for NaN and ±Infinity ("got number" said nothing: JSON's 1e400 reads as Infinity).
 */
function describeNumber(v: unknown): string {
  if (typeof v !== "number") return describe(v);
  return Number.isNaN(v) ? "NaN" : `${v} (a number too large for a 64-bit double, such as 1e400, reads as ${v})`;
}

function checkPosition(p: unknown, path: TGeoPath, c: Collector): boolean {
  if (!Array.isArray(p) || p.length < 2 || p.length > 3) {
    c.add(path, "invalid_position", "A position must be an array of 2 or 3 numbers [longitude, latitude(, elevation)]");
    return false;
  }
  let ok = true;
  for (let i = 0; i < p.length; i++) {
    if (typeof p[i] !== "number" || !Number.isFinite(p[i])) {
      c.add([...path, i], "invalid_position", `Position element ${i} must be a finite number, got ${describeNumber(p[i])}`);
      ok = false;
    }
  }
  if (!ok) return false;
  if (p[0] < -180 || p[0] > 180) {
    c.add([...path, 0], "invalid_position", `Longitude ${p[0]} is outside -180..180`);
    ok = false;
  }
  if (p[1] < -90 || p[1] > 90) {
    c.add([...path, 1], "invalid_position", `Latitude ${p[1]} is outside -90..90`);
    ok = false;
  }
  return ok;
}

function checkPositions(v: unknown, path: TGeoPath, c: Collector, min: number, what: string): boolean {
  const ok = checkArrayOf(v, path, c, `positions (${what})`, (p, pp) => checkPosition(p, pp, c));
  if (!Array.isArray(v) || v.length >= min) return ok;
  c.add(path, "too_few_positions", `A ${what} needs at least ${min} positions, got ${v.length}`);
  return false;
}

function checkRing(v: unknown, path: TGeoPath, c: Collector): boolean {
  if (!checkPositions(v, path, c, 4, "linear ring")) return false;
  const ring = v as number[][];
  const a = ring[0];
  const b = ring[ring.length - 1];
  if (a.length !== b.length || a.some((x, i) => x !== b[i])) {
    c.add(path, "unclosed_ring", "A linear ring must end with the same position it starts with");
    return false;
  }
  return true;
}

function checkArrayOf(v: unknown, path: TGeoPath, c: Collector, what: string, each: (item: unknown, path: TGeoPath) => boolean): boolean {
  if (!Array.isArray(v)) {
    c.add(path, "invalid_geojson", `Expected an array of ${what}, got ${describe(v)}`);
    return false;
  }
  let ok = true;
  for (let i = 0; i < v.length && !c.full; i++) ok = each(v[i], [...path, i]) && ok;
  return ok;
}

function checkGeometryInto(g: unknown, path: TGeoPath, c: Collector): boolean {
  if (!isObject(g)) {
    c.add(path, "invalid_geojson", `Expected a geometry object, got ${describe(g)}`);
    return false;
  }
  const type = g.type;
  if (typeof type !== "string" || !(GEOMETRY_TYPES as readonly string[]).includes(type)) {
    c.add([...path, "type"], "invalid_geojson", `Unknown geometry type ${JSON.stringify(type)}; expected one of ${GEOMETRY_TYPES.join(", ")}`);
    return false;
  }
  if (type === "GeometryCollection") {
    return checkArrayOf(g.geometries, [...path, "geometries"], c, "geometries", (x, p) => checkGeometryInto(x, p, c));
  }
  const cp = [...path, "coordinates"];
  const co = g.coordinates;
  switch (type) {
    case "Point":
      return checkPosition(co, cp, c);
    case "MultiPoint":
      return checkPositions(co, cp, c, 0, "MultiPoint");
    case "LineString":
      return checkPositions(co, cp, c, 2, "LineString");
    case "MultiLineString":
      return checkArrayOf(co, cp, c, "LineStrings", (x, p) => checkPositions(x, p, c, 2, "LineString"));
    case "Polygon":
      return checkArrayOf(co, cp, c, "linear rings", (x, p) => checkRing(x, p, c));
    case "MultiPolygon":
      return checkArrayOf(co, cp, c, "polygons", (x, p) => checkArrayOf(x, p, c, "linear rings", (r, rp) => checkRing(r, rp, c)));
  }
  return false;
}

function checkFeatureInto(f: unknown, path: TGeoPath, c: Collector): void {
  if (!isObject(f)) {
    c.add(path, "invalid_geojson", `Expected a Feature object, got ${describe(f)}`);
    return;
  }
  if (f.type !== "Feature") c.add([...path, "type"], "invalid_geojson", `Expected type "Feature", got ${JSON.stringify(f.type)}`);
  if (!("geometry" in f)) c.add([...path, "geometry"], "invalid_geojson", "A Feature must have a geometry member (object or null)");
  else if (f.geometry !== null) checkGeometryInto(f.geometry, [...path, "geometry"], c);
  if (!("properties" in f)) c.add([...path, "properties"], "invalid_geojson", "A Feature must have a properties member (object or null)");
  else if (f.properties !== null && !isObject(f.properties))
    c.add([...path, "properties"], "invalid_geojson", `properties must be an object or null, got ${describe(f.properties)}`);
  if ("id" in f && typeof f.id !== "string" && typeof f.id !== "number") c.add([...path, "id"], "invalid_geojson", "A Feature id must be a string or a number");
}

/**
 * Faults of one GeoJSON Feature (RFC 7946 §3.2), by the same rules as each feature of
 * `validateFeatureCollection`; paths relative to the feature (`["geometry", "coordinates", 0]`).
 * For readers that meet features one at a time (streamed uploads, lib/layers/parse).
 */
export function validateFeature(f: unknown): TGeoJsonIssue[] {
  const c = new Collector();
  checkFeatureInto(f, [], c);
  return c.issues;
}

/**
 * Faults of a GeoJSON FeatureCollection; at most `maxFeatures` (default 5,000) features.
 * Returns `[]` when valid.
 */
export function validateFeatureCollection(fc: unknown, maxFeatures = MAX_GEOJSON_FEATURES): TGeoJsonIssue[] {
  const c = new Collector();
  if (!isObject(fc)) {
    c.add([], "invalid_geojson", `Expected a FeatureCollection object, got ${describe(fc)}`);
    return c.issues;
  }
  if (fc.type !== "FeatureCollection") c.add(["type"], "invalid_geojson", `Expected type "FeatureCollection", got ${JSON.stringify(fc.type)}`);
  if (!Array.isArray(fc.features)) {
    c.add(["features"], "invalid_geojson", `features must be an array, got ${describe(fc.features)}`);
    return c.issues;
  }
  if (fc.features.length > maxFeatures) {
    c.add(["features"], "too_many_features", `At most ${maxFeatures} features are accepted, got ${fc.features.length}`);
    return c.issues;
  }
  for (let i = 0; i < fc.features.length && !c.full; i++) checkFeatureInto(fc.features[i], ["features", i], c);
  return c.issues;
}

/** Areas at or below this (degrees², about 0.01 m² at the equator) count as zero: rounding of collinear positions. */
const ZERO_AREA_DEG2 = 1e-12;

/** Signed planar area of a closed ring in degrees² (shoelace formula); positive when counterclockwise. */
function planarRingArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 1; i < ring.length; i++) sum += ring[i - 1]![0]! * ring[i]![1]! - ring[i]![0]! * ring[i - 1]![1]!;
  return sum / 2;
}

const ringName = (r: number) => (r === 0 ? "The outer ring" : `Hole ${r}`);

function nearText(f: TPolygonFault): string {
  const at = f.near ? ` ${JSON.stringify(f.near)}` : "";
  return f.kind === "runs_back" || f.kind === "rings_share_edge" ? `edges overlap along a line, e.g. at${at}` : `e.g. at${at}`;
}

/** How many distinct [x, y] a ring has, counting no further than 3 (O(n), no keys built). */
function distinctUpTo3(ring: Position[]): number {
  const seen: Position[] = [];
  for (const p of ring) {
    if (!seen.some((q) => q[0] === p[0] && q[1] === p[1])) seen.push(p);
    if (seen.length === 3) break;
  }
  return seen.length;
}

/**
 * The ring at which the running count of positions passes `MAX_AREA_POSITIONS`, or -1. Counted
 * before any other check so that an oversized area costs no more than this loop.
 */
function ringOverPositionCap(coordinates: unknown): number {
  if (!Array.isArray(coordinates)) return -1;
  let total = 0;
  for (let r = 0; r < coordinates.length; r++) {
    const ring: unknown = coordinates[r];
    total += Array.isArray(ring) ? ring.length : 0;
    if (total > MAX_AREA_POSITIONS) return r;
  }
  return -1;
}

/**
 * Faults of an area: one GeoJSON Polygon geometry that is structurally valid (see above) and
 * a valid simple polygon (see the module comment); each fault names its ring.
 *
 * Longitudes are read as given, on a plane: an area is not split at the antimeridian, so a
 * polygon from 170° to -170° covers the 340° between them, not the 20° across the 180th
 * meridian. Longitudes beyond ±180 are refused, so an area across the antimeridian is sent
 * as two runs, one per side.
 */
export function validateArea(g: unknown): TGeoJsonIssue[] {
  const c = new Collector();
  if (!isObject(g)) {
    c.add([], "invalid_geojson", `Expected a Polygon geometry object, got ${describe(g)}`);
    return c.issues;
  }
  if (g.type !== "Polygon") {
    c.add(["type"], "invalid_geojson", `An area must be a geometry of type "Polygon", got ${JSON.stringify(g.type)}`);
    return c.issues;
  }
  const over = ringOverPositionCap(g.coordinates);
  if (over >= 0) {
    c.add(
      ["coordinates", over],
      "too_many_positions",
      `An area may have at most ${MAX_AREA_POSITIONS} positions in all its rings; this ring passes that count`,
    );
    return c.issues;
  }
  if (!checkGeometryInto(g, [], c) || c.issues.length > 0) return c.issues;
  const poly = g as unknown as Polygon;
  if (poly.coordinates.length === 0) {
    c.add(["coordinates"], "too_few_positions", "A Polygon needs an outer ring");
    return c.issues;
  }
  for (let r = 0; r < poly.coordinates.length; r++) {
    const distinct = distinctUpTo3(poly.coordinates[r]!);
    if (distinct < 3) c.add(["coordinates", r], "too_few_positions", `${ringName(r)} has ${distinct} distinct position(s); a ring needs at least 3`);
  }
  if (c.issues.length > 0) return c.issues;
  // OGC validity as for an uploaded polygon, read on the plane as given (no antimeridian cut).
  const faults = polygonFaults(poly, { antimeridian: false });
  for (let r = 0; r < poly.coordinates.length; r++) {
    const own = faults.filter((f) => f.ring === r && (f.kind === "crosses_itself" || f.kind === "touches_itself" || f.kind === "runs_back"));
    // A bow tie's lobes cancel to zero planar area, and a ring along one line runs back along itself: the crossing names the first, the area the second.
    const crossing = own.find((f) => f.kind !== "runs_back");
    if (crossing) c.add(["coordinates", r], "self_intersection", `${ringName(r)} intersects itself (${nearText(crossing)})`);
    else if (Math.abs(planarRingArea(poly.coordinates[r]!)) <= ZERO_AREA_DEG2)
      c.add(["coordinates", r], "zero_area", `${ringName(r)} encloses no area (its positions lie on one line)`);
    else if (own[0]) c.add(["coordinates", r], "self_intersection", `${ringName(r)} intersects itself (${nearText(own[0])})`);
  }
  if (c.issues.length > 0) return c.issues;
  const between = faults.find((f) => f.kind === "rings_cross" || f.kind === "rings_share_edge");
  if (between) {
    c.add(["coordinates"], "self_intersection", `The polygon's rings cross each other (${nearText(between)})`);
    return c.issues;
  }
  for (const f of faults) {
    if (f.kind === "hole_outside") c.add(["coordinates", f.ring], "hole_outside_shell", `Hole ${f.ring} is not inside the outer ring`);
    if (f.kind === "holes_nested") c.add(["coordinates", f.other!], "hole_outside_shell", `Holes ${f.ring} and ${f.other} lie one inside the other`);
  }
  return c.issues;
}
