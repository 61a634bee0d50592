/**
 * Point-in-polygon for many points against one polygon, with the same answer as Turf's
 * `booleanPointInPolygon` (which runs point-in-polygon-hao, Hao et al. 2018, "Optimal
 * Reliable Point-in-Polygon Test and Differential Coding Boolean Operations on Polygons")
 * but in time proportional to the edges near the point instead of all edges.
 *
 * Why: a country of Natural Earth 1:50m has up to ~10,000 vertices; testing 135,233 cities
 * with Turf walks every edge for every candidate point. Hao's crossing test only counts an
 * edge whose y-range contains the point's y (any other edge adds nothing), so the edges are
 * bucketed once into horizontal bands of the polygon's bbox and a point only visits the edges
 * of its band. Per edge the arithmetic is exactly Hao's (the same subtractions, the same
 * determinant as robust-predicates' `orient2d`); where that determinant is too close to zero
 * to trust its sign in doubles (the point lies on or within rounding of an edge's line), the
 * whole test is handed to Turf, so results are identical to Turf's in every case.
 *
 * Prepared polygons are cached per coordinates array (WeakMap); inputs must not be mutated.
 *
 * Bench rows (CODE_STYLE.md "Performance code"): `country-stats, engine only` and `country-stats
 * over the 10M-point layer` (npm run bench -- engine data).
 */
import { booleanPointInPolygon } from "@turf/turf";
import type { Position } from "geojson";
import { coordinatesBbox } from "./bbox";

/** Result of a test: inside, on the boundary, or outside. */
export type TPipResult = "inside" | "boundary" | "outside";

interface TPrepared {
  rings: Position[][];
  minY: number;
  maxY: number;
  minX: number;
  maxX: number;
  bandHeight: number;
  /** Edge coordinates x1,y1,x2,y2 per edge, edges ordered band by band (an edge may repeat). */
  edges: Float64Array;
  /** Edges of band b are edges[bandStart[b] .. bandStart[b+1]) (in edge units). */
  bandStart: Uint32Array;
}

// Shewchuk's error bound for the 2D orientation determinant (as in robust-predicates).
const EPSILON = 1.1102230246251565e-16;
const CCW_ERRBOUND_A = (3 + 16 * EPSILON) * EPSILON;

const cache = new WeakMap<Position[][], TPrepared>();

/** Below this many edges, bands do not pay for themselves. */
const MIN_EDGES_FOR_BANDS = 32;

function prepare(rings: Position[][]): TPrepared {
  let n = 0;
  for (const ring of rings) n += Math.max(0, ring.length - 1);
  const [minX, minY, maxX, maxY] = coordinatesBbox(rings) ?? [Infinity, Infinity, -Infinity, -Infinity];
  // About 4 edges per band on average: large polygons get many thin bands.
  const bands = n < MIN_EDGES_FOR_BANDS || !(maxY > minY) ? 1 : Math.min(65_536, Math.ceil(n / 4));
  const bandHeight = bands === 1 ? Infinity : (maxY - minY) / bands;
  const bandOf = (y: number) => (bands === 1 ? 0 : Math.min(bands - 1, Math.max(0, Math.floor((y - minY) / bandHeight))));
  const counts = new Uint32Array(bands + 1);
  const each = (fn: (x1: number, y1: number, x2: number, y2: number, b: number) => void) => {
    for (const ring of rings) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const a = ring[i]!,
          c = ring[i + 1]!;
        const lo = bandOf(Math.min(a[1]!, c[1]!));
        const hi = bandOf(Math.max(a[1]!, c[1]!));
        for (let b = lo; b <= hi; b++) fn(a[0]!, a[1]!, c[0]!, c[1]!, b);
      }
    }
  };
  each((_x1, _y1, _x2, _y2, b) => counts[b + 1]!++);
  for (let b = 0; b < bands; b++) counts[b + 1]! += counts[b]!;
  const bandStart = counts.slice();
  const fill = counts.slice(0, bands);
  const edges = new Float64Array(bandStart[bands]! * 4);
  each((x1, y1, x2, y2, b) => {
    const k = fill[b]!++ * 4;
    edges[k] = x1;
    edges[k + 1] = y1;
    edges[k + 2] = x2;
    edges[k + 3] = y2;
  });
  return { rings, minX, minY, maxX, maxY, bandHeight, edges, bandStart };
}

function prepared(rings: Position[][]): TPrepared {
  let p = cache.get(rings);
  if (!p) cache.set(rings, (p = prepare(rings)));
  return p;
}

function turfFallback(rings: Position[][], x: number, y: number): TPipResult {
  const pt = [x, y];
  const poly = { type: "Polygon" as const, coordinates: rings };
  if (!booleanPointInPolygon(pt, poly)) return "outside";
  return booleanPointInPolygon(pt, poly, { ignoreBoundary: true }) ? "inside" : "boundary";
}

/**
 * Tests point (x, y) against a polygon given by its rings (outer ring first, then holes; RFC
 * 7946 closed rings). Same result as Turf `booleanPointInPolygon` with and without
 * `ignoreBoundary`: "boundary" when the point is on an edge or vertex of any ring.
 */
export function pointInPolygonRings(rings: Position[][], x: number, y: number): TPipResult {
  const p = prepared(rings);
  if (x < p.minX || x > p.maxX || y < p.minY || y > p.maxY) return "outside";
  const bands = p.bandStart.length - 1;
  const b = bands === 1 ? 0 : Math.min(bands - 1, Math.max(0, Math.floor((y - p.minY) / p.bandHeight)));
  const e = p.edges;
  let k = 0;
  for (let i = p.bandStart[b]!, end = p.bandStart[b + 1]!; i < end; i++) {
    const j = i * 4;
    // Hao's loop body for the edge (x1,y1) -> (x2,y2), u/v relative to the point.
    const u1 = e[j]! - x;
    const v1 = e[j + 1]! - y;
    const u2 = e[j + 2]! - x;
    const v2 = e[j + 3]! - y;
    if (v1 === 0 && v2 === 0) {
      if ((u2 <= 0 && u1 >= 0) || (u1 <= 0 && u2 >= 0)) return "boundary";
    } else if ((v2 >= 0 && v1 <= 0) || (v2 <= 0 && v1 >= 0)) {
      // orient2d(u1, u2, v1, v2, 0, 0) of robust-predicates: det = u2*v1 - u1*v2.
      const detleft = u2 * v1;
      const detright = u1 * v2;
      const f = detleft - detright;
      if (Math.abs(f) < CCW_ERRBOUND_A * Math.abs(detleft + detright) || f === 0) {
        // Sign not certain in doubles (or the point is on the edge): let Turf decide exactly.
        return turfFallback(rings, x, y);
      }
      if ((f > 0 && v2 > 0 && v1 <= 0) || (f < 0 && v2 <= 0 && v1 > 0)) k++;
    }
  }
  return k % 2 === 0 ? "outside" : "inside";
}

/**
 * `pointInPolygonRings` over the parts of a Polygon or MultiPolygon: "inside" when inside any
 * part, else "boundary" when on the boundary of any part. So, like Turf, the point hits with
 * boundary (`ignoreBoundary: false`) when the result is not "outside", and without boundary
 * (`ignoreBoundary: true`) when it is "inside".
 */
export function pointInPolygonal(
  g: { type: "Polygon"; coordinates: Position[][] } | { type: "MultiPolygon"; coordinates: Position[][][] },
  x: number,
  y: number,
): TPipResult {
  if (g.type === "Polygon") return pointInPolygonRings(g.coordinates, x, y);
  let boundary = false;
  for (const rings of g.coordinates) {
    const r = pointInPolygonRings(rings, x, y);
    if (r === "inside") return r;
    if (r === "boundary") boundary = true;
  }
  return boundary ? "boundary" : "outside";
}
