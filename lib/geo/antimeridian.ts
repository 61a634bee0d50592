/**
 * Cutting polygons at the antimeridian (RFC 7946 §3.1.9: a geometry crossing it SHOULD be
 * split into a MultiPolygon of parts on either side).
 *
 * Why: Turf `buffer` works in a local projection and maps longitudes back into [-180, 180],
 * so the buffer of a point at 179.99° E comes back as one ring whose edges jump from +180 to
 * -180: drawn literally, that ring wraps the whole globe. `splitAtAntimeridian` detects such
 * jumps (an edge longer than 180° in longitude), unwraps the rings to continuous longitudes,
 * cuts the result with Turf `intersect` against the world box and its copies shifted by
 * ±360°, and shifts the pieces back. Geometries without jumps are returned unchanged.
 */
import { bboxPolygon, featureCollection, intersect } from "@turf/turf";
import type { Feature, MultiPolygon, Polygon, Position } from "geojson";
import { coordinatesBbox } from "./bbox";

const jumps = (ring: Position[]) => ring.some((p, i) => i > 0 && Math.abs(p[0]! - ring[i - 1]![0]!) > 180);

/** `ring` with longitudes made continuous (each step under 180°), starting near `ref`. */
export function unwrap(ring: Position[], ref: number): Position[] {
  let prev = ref;
  return ring.map((p) => {
    let x = p[0]!;
    while (x - prev > 180) x -= 360;
    while (prev - x > 180) x += 360;
    prev = x;
    return [x, ...p.slice(1)];
  });
}

const unwrapAll = (rings: Position[][]) => rings.map((r) => unwrap(r, rings[0]![0]![0]!));

/**
 * A Polygon/MultiPolygon whose rings jump across ±180° as a MultiPolygon cut at the antimeridian;
 * others unchanged. `redraw` gives a jumping polygon's rings continuous longitudes (default:
 * `unwrap` each ring from the first position's longitude; exterior ring first).
 */
export function splitAtAntimeridian<G extends Polygon | MultiPolygon>(g: G, redraw: (rings: Position[][]) => Position[][] = unwrapAll): G | MultiPolygon {
  const polys = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
  if (!polys.some((rings) => rings.some(jumps))) return g;
  const parts: Position[][][] = [];
  for (const rings of polys) {
    if (!rings.some(jumps)) {
      parts.push(rings);
      continue;
    }
    const continuous = redraw(rings);
    const shape: Feature<Polygon> = { type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: continuous } };
    const box = coordinatesBbox(continuous[0]);
    if (!box) continue;
    const [west, , east] = box;
    for (const shift of [-360, 0, 360]) {
      const [x0, x1] = [-180 - shift, 180 - shift];
      if (east <= x0 || west >= x1) continue;
      const moved = (c: Position[][]) => c.map((r) => r.map((p) => [Math.max(-180, Math.min(180, p[0]! + shift)), ...p.slice(1)]));
      // Wholly on one side: no cut, and none of intersect's cost (about half a second per side
      // for Russia's 4,894 positions).
      if (west >= x0 && east <= x1) {
        parts.push(moved(continuous));
        continue;
      }
      const piece = intersect(featureCollection([shape, bboxPolygon([x0, -90, x1, 90])]));
      if (!piece) continue;
      for (const c of piece.geometry.type === "Polygon" ? [piece.geometry.coordinates] : piece.geometry.coordinates) parts.push(moved(c));
    }
  }
  return { type: "MultiPolygon", coordinates: parts };
}
