/**
 * Validity of a GeoJSON Polygon or MultiPolygon in the sense of OGC Simple Features (ISO
 * 19125-1 §6.1.11; the rules JTS `IsValidOp` and GEOS `IsValid` apply, which GeoPandas
 * `is_valid`, PostGIS `ST_IsValid` and DuckDB report), read in planar longitude/latitude as
 * RFC 7946 positions are drawn:
 *
 * - every ring has at least 4 positions and is closed;
 * - no edge spans more than 180° of longitude (except along a pole): such an edge means the ring crosses the
 *   antimeridian as given, and RFC 7946 §3.1.9 asks for it to be cut at ±180° into a
 *   MultiPolygon (lib/geo/antimeridian.ts does for computed shapes); reported alone, since the
 *   crossings below follow from it;
 * - no ring crosses or touches itself (apart from consecutive edges at their shared vertex;
 *   repeated consecutive positions are allowed) and no two edges overlap;
 * - rings may touch each other at single points but never cross; every hole lies inside its
 *   polygon's exterior ring; the polygons of a MultiPolygon do not overlap (one may lie in
 *   another's hole) and touch at single points at most.
 * Not checked: an interior cut into pieces by rings that touch at two or more points (JTS
 * "Interior is disconnected"), and ring orientation (RFC 7946 §3.1.6 makes it a SHOULD; the
 * writers apply it, lib/geo/right-hand-rule.ts).
 *
 * Each problem (at most `MAX_PROBLEMS`) names the polygon of a MultiPolygon and the ring (0 the
 * exterior, holes from 1) with a position near the fault, e.g. `polygon 17: ring 0 crosses
 * itself near (170.9259, 69.0113)`. `opts.antimeridian: false` reads every edge on the plane as
 * given (an `area` input). Positions must be numbers (validate-geojson.ts checks that first).
 * Edges are found with a Flatbush index of their boxes, so a country of 5,000 positions takes
 * milliseconds, not the quadratic pass of Turf `kinks`.
 */
import Flatbush from "flatbush";
import type { Geometry, Position } from "geojson";
import { coordinatesBbox, type TBbox } from "./bbox";

/** Most problems reported for one geometry. */
export const MAX_PROBLEMS = 5;

interface TRing {
  polygon: number;
  ring: number;
  points: Position[];
}

const at = (p: Position) => `(${Number(p[0]!.toFixed(4))}, ${Number(p[1]!.toFixed(4))})`;

/** Sign of the cross product (b - a) × (c - a): > 0 left turn, < 0 right turn, 0 collinear. */
function orient(a: Position, b: Position, c: Position): number {
  const v = (b[0]! - a[0]!) * (c[1]! - a[1]!) - (b[1]! - a[1]!) * (c[0]! - a[0]!);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/** Whether c, collinear with a-b, lies within the segment's box (so on the segment). */
function within(a: Position, b: Position, c: Position): boolean {
  return Math.min(a[0]!, b[0]!) <= c[0]! && c[0]! <= Math.max(a[0]!, b[0]!) && Math.min(a[1]!, b[1]!) <= c[1]! && c[1]! <= Math.max(a[1]!, b[1]!);
}

const same = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

type TContact = { kind: "cross"; near: Position } | { kind: "overlap"; near: Position } | { kind: "touch"; points: Position[] } | null;

/** How segments p1-p2 and q1-q2 meet: a proper crossing, a collinear overlap of positive length, touching points, or not at all. */
function contact(p1: Position, p2: Position, q1: Position, q2: Position): TContact {
  const o1 = orient(p1, p2, q1);
  const o2 = orient(p1, p2, q2);
  const o3 = orient(q1, q2, p1);
  const o4 = orient(q1, q2, p2);
  if (o1 * o2 < 0 && o3 * o4 < 0) {
    const t =
      ((q1[0]! - p1[0]!) * (q2[1]! - q1[1]!) - (q1[1]! - p1[1]!) * (q2[0]! - q1[0]!)) /
      ((p2[0]! - p1[0]!) * (q2[1]! - q1[1]!) - (p2[1]! - p1[1]!) * (q2[0]! - q1[0]!));
    return { kind: "cross", near: [p1[0]! + t * (p2[0]! - p1[0]!), p1[1]! + t * (p2[1]! - p1[1]!)] };
  }
  const points: Position[] = [];
  if (o1 === 0 && within(p1, p2, q1)) points.push(q1);
  if (o2 === 0 && within(p1, p2, q2)) points.push(q2);
  if (o3 === 0 && within(q1, q2, p1)) points.push(p1);
  if (o4 === 0 && within(q1, q2, p2)) points.push(p2);
  if (points.length === 0) return null;
  const distinct = points.filter((p, i) => points.findIndex((q) => same(p, q)) === i);
  if (distinct.length > 1) return { kind: "overlap", near: distinct[0]! };
  return { kind: "touch", points: distinct };
}

/** Even-odd test: 1 inside, -1 outside, 0 on the ring. */
function locate(p: Position, ring: Position[]): number {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j]!;
    const b = ring[i]!;
    if (orient(a, b, p) === 0 && within(a, b, p)) return 0;
    if (a[1]! > p[1]! !== b[1]! > p[1]! && p[0]! < ((b[0]! - a[0]!) * (p[1]! - a[1]!)) / (b[1]! - a[1]!) + a[0]!) inside = !inside;
  }
  return inside ? 1 : -1;
}

/** Where `ring` lies relative to `other` (the rings neither cross nor overlap): decided by the first position not on `other`. */
function ringInside(ring: Position[], other: Position[]): boolean {
  for (const p of ring) {
    const l = locate(p, other);
    if (l !== 0) return l > 0;
  }
  // Every position on the other ring: the same ring twice, or one drawn along it; a midpoint decides.
  for (let i = 1; i < ring.length; i++) {
    const l = locate([(ring[i - 1]![0]! + ring[i]![0]!) / 2, (ring[i - 1]![1]! + ring[i]![1]!) / 2], other);
    if (l !== 0) return l > 0;
  }
  return true;
}

const overlapBoxes = (a: TBbox | null, b: TBbox | null) => !!a && !!b && a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/**
 * What is wrong, where: `ring` (and `polygon`) name the ring at fault; `other` the second ring of
 * a fault between two rings (rings crossing, sharing an edge, holes nested; for polygons
 * overlapping, `polygon` lies inside polygon `other`).
 */
export interface TPolygonFault {
  kind:
    | "too_few_positions"
    | "unclosed"
    | "too_few_corners"
    | "antimeridian"
    | "crosses_itself"
    | "runs_back"
    | "touches_itself"
    | "rings_cross"
    | "rings_share_edge"
    | "hole_outside"
    | "holes_nested"
    | "polygons_overlap";
  polygon: number;
  ring: number;
  other?: number;
  /** A position near the fault, for crossings, overlaps and touches. */
  near?: Position;
  message: string;
}

/** The problems of a Polygon or MultiPolygon as sentences (see module doc); [] for other geometries. */
export function polygonProblems(geometry: Geometry | null): string[] {
  return polygonFaults(geometry).map((f) => f.message);
}

/** The problems of one (Multi)Polygon inside a geometry: `path` leads to it from the geometry (`[]` for the geometry itself). */
export interface TPlacedPolygonProblems {
  path: (string | number)[];
  problems: string[];
}

/**
 * The problems (see module doc) of every Polygon and MultiPolygon in `geometry`: the geometry
 * itself, or each member of a GeometryCollection, nested collections included, each named by
 * its path (`["geometries", 2]`, `["geometries", 0, "geometries", 1]`). OGC Simple Features
 * set no rule between the members of a collection (they may overlap), so each member is
 * checked on its own, as a plain Polygon or MultiPolygon would be. Only members with problems
 * are listed, in document order; [] when there are none. Iterative, so no nesting of
 * collections can overflow the stack.
 */
export function geometryPolygonProblems(geometry: Geometry | null): TPlacedPolygonProblems[] {
  const found: TPlacedPolygonProblems[] = [];
  const stack: { geometry: Geometry | null; path: (string | number)[] }[] = [{ geometry, path: [] }];
  while (stack.length > 0) {
    const { geometry: g, path } = stack.pop()!;
    if (g?.type === "GeometryCollection") {
      for (let i = g.geometries.length - 1; i >= 0; i--) stack.push({ geometry: g.geometries[i]!, path: [...path, "geometries", i] });
      continue;
    }
    const problems = polygonProblems(g);
    if (problems.length > 0) found.push({ path, problems });
  }
  return found;
}

/** The problems of a Polygon or MultiPolygon (see module doc); [] for other geometries. */
export function polygonFaults(geometry: Geometry | null, opts: { antimeridian?: boolean } = {}): TPolygonFault[] {
  if (!geometry || (geometry.type !== "Polygon" && geometry.type !== "MultiPolygon")) return [];
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
  const multi = geometry.type === "MultiPolygon";
  const name = (r: { polygon: number; ring: number }) => `${multi ? `polygon ${r.polygon}: ` : ""}ring ${r.ring}`;
  const problems: TPolygonFault[] = [];
  const add = (kind: TPolygonFault["kind"], r: { polygon: number; ring: number }, message: string, more: { other?: number; near?: Position } = {}) => {
    if (problems.length < MAX_PROBLEMS && !problems.some((p) => p.message === message))
      problems.push({ kind, polygon: r.polygon, ring: r.ring, ...more, message });
  };

  const rings: TRing[] = [];
  polygons.forEach((poly, polygon) =>
    poly.forEach((raw, ring) => {
      const where = name({ polygon, ring });
      if (raw.length < 4) return add("too_few_positions", { polygon, ring }, `${where} has ${raw.length} positions; a ring needs at least 4`);
      if (!same(raw[0]!, raw[raw.length - 1]!)) return add("unclosed", { polygon, ring }, `${where} is not closed (its last position differs from its first)`);
      // Repeated consecutive positions are allowed (JTS removes them too); they are no edges.
      const points = raw.filter((p, i) => i === 0 || !same(p, raw[i - 1]!));
      if (points.length < 4) return add("too_few_corners", { polygon, ring }, `${where} has fewer than 3 distinct corners`);
      rings.push({ polygon, ring, points });
    }),
  );
  if (problems.length || rings.length === 0) return problems;

  for (const r of opts.antimeridian === false ? [] : rings)
    for (let i = 1; i < r.points.length; i++) {
      const a = r.points[i - 1]!;
      const b = r.points[i]!;
      // An edge along a pole (a polygon closed along -90° or 90°) may span the whole map.
      if (Math.abs(b[0]! - a[0]!) > 180 && !(Math.abs(a[1]!) === 90 && b[1] === a[1])) {
        add(
          "antimeridian",
          r,
          `${name(r)} crosses the antimeridian as given (an edge from ${at(a)} to ${at(b)}); cut it at ±180° into a MultiPolygon (RFC 7946 §3.1.9)`,
        );
        break;
      }
    }
  if (problems.length) return problems;

  // Every edge of every ring in one index; pairs of edges whose boxes meet are tested exactly.
  const edges: { r: TRing; i: number }[] = [];
  for (const r of rings) for (let i = 1; i < r.points.length; i++) edges.push({ r, i });
  const index = new Flatbush(edges.length);
  for (const { r, i } of edges) {
    const a = r.points[i - 1]!;
    const b = r.points[i]!;
    index.add(Math.min(a[0]!, b[0]!), Math.min(a[1]!, b[1]!), Math.max(a[0]!, b[0]!), Math.max(a[1]!, b[1]!));
  }
  index.finish();
  // Points where two rings touch: at most one per pair of rings is allowed to be reported as fine.
  for (let e = 0; e < edges.length && problems.length < MAX_PROBLEMS; e++) {
    const { r, i } = edges[e]!;
    const p1 = r.points[i - 1]!;
    const p2 = r.points[i]!;
    for (const f of index.search(Math.min(p1[0]!, p2[0]!), Math.min(p1[1]!, p2[1]!), Math.max(p1[0]!, p2[0]!), Math.max(p1[1]!, p2[1]!))) {
      if (f <= e) continue;
      const other = edges[f]!;
      const q1 = other.r.points[other.i - 1]!;
      const q2 = other.r.points[other.i]!;
      const c = contact(p1, p2, q1, q2);
      if (!c) continue;
      const sameRing = other.r === r;
      const named = sameRing ? name(r) : `${name(r)} and ${multi && other.r.polygon !== r.polygon ? name(other.r) : `ring ${other.r.ring}`}`;
      const where = (near: Position) => (sameRing ? { near } : { other: other.r.ring, near });
      if (c.kind === "cross")
        add(sameRing ? "crosses_itself" : "rings_cross", r, `${named} ${sameRing ? "crosses itself" : "cross"} near ${at(c.near)}`, where(c.near));
      else if (c.kind === "overlap")
        add(
          sameRing ? "runs_back" : "rings_share_edge",
          r,
          `${named} ${sameRing ? "runs back along itself" : "share an edge"} near ${at(c.near)}`,
          where(c.near),
        );
      else if (sameRing) {
        // Consecutive edges meet at their shared vertex (and the last edge meets the first).
        const last = r.points.length - 1;
        const adjacent = other.i - i === 1 || (i === 1 && other.i === last);
        const shared = other.i - i === 1 ? p2 : p1;
        if (!(adjacent && c.points.length === 1 && same(c.points[0]!, shared)))
          add("touches_itself", r, `${name(r)} touches itself at ${at(c.points[0]!)}`, { near: c.points[0]! });
      }
    }
  }
  if (problems.length) return problems;

  // No crossings: rings are nested or apart. Holes inside their exterior ring, polygons apart.
  const exteriors = rings.filter((r) => r.ring === 0);
  for (const h of rings) {
    if (h.ring === 0) continue;
    const shell = exteriors.find((r) => r.polygon === h.polygon);
    if (shell && !ringInside(h.points, shell.points)) add("hole_outside", h, `${name(h)} (a hole) lies outside its polygon's exterior ring`);
  }
  for (let k = 0; k < rings.length; k++) {
    const h = rings[k]!;
    for (let m = k + 1; m < rings.length; m++) {
      const g = rings[m]!;
      if (h.ring === 0 || g.ring === 0 || g.polygon !== h.polygon) continue;
      if (overlapBoxes(coordinatesBbox(h.points), coordinatesBbox(g.points)) && (ringInside(h.points, g.points) || ringInside(g.points, h.points)))
        add("holes_nested", h, `${name(h)} and ring ${g.ring} (holes) lie one inside the other`, { other: g.ring });
    }
  }
  if (multi) {
    const boxes = exteriors.map((r) => coordinatesBbox(r.points));
    for (let a = 0; a < exteriors.length; a++)
      for (let b = 0; b < exteriors.length; b++) {
        if (a === b || !overlapBoxes(boxes[a]!, boxes[b]!)) continue;
        const inner = exteriors[a]!;
        const outer = exteriors[b]!;
        if (!ringInside(inner.points, outer.points)) continue;
        // Inside another polygon's exterior ring is fine only within one of its holes.
        const holes = rings.filter((r) => r.polygon === outer.polygon && r.ring > 0);
        if (!holes.some((h) => ringInside(inner.points, h.points)))
          add("polygons_overlap", inner, `polygon ${inner.polygon} lies inside polygon ${outer.polygon} (they overlap)`, { other: outer.polygon });
      }
  }
  return problems;
}
