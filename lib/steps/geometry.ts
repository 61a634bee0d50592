/**
 * Geometry tests shared by the spatial steps: polygonal or not, and a point against one
 * geometry with the banded point-in-polygon test (same answer as Turf
 * booleanPointInPolygon, see lib/geo/point-in-polygon.ts).
 */
import { booleanIntersects } from "@turf/turf";
import type { Geometry, MultiPolygon, Polygon, Position } from "geojson";
import { pointInPolygonal } from "@/lib/geo/point-in-polygon";

export function isPolygonal(g: Geometry | null): g is Polygon | MultiPolygon {
  return g !== null && (g.type === "Polygon" || g.type === "MultiPolygon");
}

/** Point against one geometry: point-in-polygon for polygons (boundary counts unless `ignoreBoundary`), booleanIntersects otherwise. */
export function pointHits(pt: Position, g: Geometry, ignoreBoundary: boolean): boolean {
  if (g.type === "Polygon" || g.type === "MultiPolygon") {
    const r = pointInPolygonal(g, pt[0]!, pt[1]!);
    return ignoreBoundary ? r === "inside" : r !== "outside";
  }
  return booleanIntersects({ type: "Point", coordinates: pt }, g);
}
