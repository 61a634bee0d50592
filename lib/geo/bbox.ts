/**
 * The bbox of a GeoJSON geometry: what the layer file writer sorts by and writes in its
 * GeoParquet 1.1 `bbox` covering column, and what the `geo` metadata's column bbox unites.
 */
import type { Geometry } from "geojson";

/** `[xmin, ymin, xmax, ymax]` in the geometry's units (degrees for WGS 84). */
export type TBbox = [number, number, number, number];

/**
 * Bbox over all finite X/Y of a GeoJSON geometry (RFC 7946 positions `[x, y, ...]`), or null
 * when it has none (null geometry, empty coordinates, only NaN). X and Y are counted
 * separately. Malformed geometries give whatever finite numbers they hold; the WKB encoder
 * rejects them later.
 */
export function geometryBbox(geometry: Geometry | null | undefined): TBbox | null {
  if (!geometry || typeof geometry !== "object") return null;
  if (geometry.type !== "GeometryCollection") return coordinatesBbox((geometry as { coordinates?: unknown }).coordinates);
  const box: TBbox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const child of geometry.geometries ?? []) extendBbox(box, geometryBbox(child));
  return box[0] <= box[2] && box[1] <= box[3] ? box : null;
}

/** `geometryBbox` of nested GeoJSON coordinates (a position, or arrays of them at any depth). */
export function coordinatesBbox(coordinates: unknown): TBbox | null {
  const box: TBbox = [Infinity, Infinity, -Infinity, -Infinity];
  walk(box, coordinates);
  return box[0] <= box[2] && box[1] <= box[3] ? box : null;
}

/** Grows `box` to cover `other` (nothing for null). */
export function extendBbox(box: TBbox, other: TBbox | null): void {
  if (!other) return;
  if (other[0] < box[0]) box[0] = other[0];
  if (other[1] < box[1]) box[1] = other[1];
  if (other[2] > box[2]) box[2] = other[2];
  if (other[3] > box[3]) box[3] = other[3];
}

function walk(box: TBbox, value: unknown): void {
  if (!Array.isArray(value) || value.length === 0) return;
  if (typeof value[0] === "number") {
    const x = value[0];
    const y = value[1] as number;
    if (Number.isFinite(x)) {
      if (x < box[0]) box[0] = x;
      if (x > box[2]) box[2] = x;
    }
    if (Number.isFinite(y)) {
      if (y < box[1]) box[1] = y;
      if (y > box[3]) box[3] = y;
    }
    return;
  }
  for (const item of value) walk(box, item);
}
