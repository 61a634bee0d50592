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

function jumps(ring: Position[]): boolean {
  for (let i = 1; i < ring.length; i++) if (Math.abs(ring[i]![0]! - ring[i - 1]![0]!) > 180) return true;
  return false;
}

function unwrap(ring: Position[], ref: number): Position[] {
  const out: Position[] = [];
  let prev = ref;
  for (const p of ring) {
    let x = p[0]!;
    while (x - prev > 180) x -= 360;
    while (prev - x > 180) x += 360;
    out.push([x, ...p.slice(1)]);
    prev = x;
  }
  return out;
}

/** A Polygon/MultiPolygon whose rings jump across ±180° as a MultiPolygon cut at the antimeridian; others unchanged. */
export function splitAtAntimeridian<G extends Polygon | MultiPolygon>(g: G): G | MultiPolygon {
  const polys = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
  if (!polys.some((rings) => rings.some(jumps))) return g;
  const parts: Position[][][] = [];
  for (const rings of polys) {
    if (!rings.some(jumps)) {
      parts.push(rings);
      continue;
    }
    const ref = rings[0]![0]![0]!;
    const shape: Feature<Polygon> = { type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: rings.map((r) => unwrap(r, ref)) } };
    for (const shift of [-360, 0, 360]) {
      const piece = intersect(featureCollection([shape, bboxPolygon([-180 - shift, -90, 180 - shift, 90])]));
      if (!piece) continue;
      const moved = (c: Position[][]) => c.map((r) => r.map((p) => [Math.max(-180, Math.min(180, p[0]! + shift)), ...p.slice(1)]));
      if (piece.geometry.type === "Polygon") parts.push(moved(piece.geometry.coordinates));
      else for (const c of piece.geometry.coordinates) parts.push(moved(c));
    }
  }
  return { type: "MultiPolygon", coordinates: parts };
}
