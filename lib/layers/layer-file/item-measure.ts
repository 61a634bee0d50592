/**
 * Per-item measurements shared by the layer file writer and reader: a geometry's bbox (for the
 * sort key and the GeoParquet `bbox` covering column) and an estimate of the heap bytes an item
 * holds (for the row group cache's byte bound and the writer's early close of a row group).
 */
import type { Geometry } from "geojson";

/** `[xmin, ymin, xmax, ymax]` in the geometry's units (degrees for WGS 84). */
export type TBbox = [number, number, number, number];

/**
 * Bbox over all finite X/Y of a GeoJSON geometry (RFC 7946 positions `[x, y, ...]`), or null
 * when it has none (null geometry, empty coordinates, only NaN). Same rule as the GeoParquet
 * column bbox gathered by `GeometryStats` (lib/formats/wkb.ts). Malformed geometries give
 * whatever finite numbers they hold; the WKB encoder rejects them later.
 */
export function geometryBbox(geometry: Geometry | null | undefined): TBbox | null {
  if (!geometry || typeof geometry !== "object") return null;
  const box: TBbox = [Infinity, Infinity, -Infinity, -Infinity];
  if (geometry.type === "GeometryCollection") {
    for (const child of geometry.geometries ?? []) extend(box, geometryBbox(child));
  } else {
    walk(box, (geometry as { coordinates?: unknown }).coordinates);
  }
  return box[0] <= box[2] && box[1] <= box[3] ? box : null;
}

function extend(box: TBbox, other: TBbox | null): void {
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
    // X and Y are counted separately, as GeometryStats does
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

/*
 * Heap sizes used by the estimate, measured on Node 20 (V8 11) with `--expose-gc` and
 * heapUsed before/after holding 500,000 point features parsed from JSON (264 bytes each, with
 * four properties) and 50,000 polygons of 100 positions (7,435 bytes each: ~72 per position).
 * The estimate errs high for points (~340 for those four properties): a bound, not a target.
 */
const OBJECT_BYTES = 40;
const POSITION_BYTES = 72;
const ARRAY_BYTES = 32;
const PROPERTY_BYTES = 24;
const NUMBER_BYTES = 16;
const STRING_HEADER_BYTES = 20;

/** Estimated heap bytes of a JSON-like value (strings counted at one byte per character plus a header). */
export function estimateValueBytes(value: unknown): number {
  switch (typeof value) {
    case "string":
      return STRING_HEADER_BYTES + value.length;
    case "number":
    case "bigint":
      return NUMBER_BYTES;
    case "object": {
      if (value === null) return 0;
      if (Array.isArray(value)) {
        if (value.length > 0 && typeof value[0] === "number") return POSITION_BYTES;
        let n = ARRAY_BYTES;
        for (const item of value) n += 8 + estimateValueBytes(item);
        return n;
      }
      let n = OBJECT_BYTES;
      for (const key in value) {
        if (Object.hasOwn(value, key)) n += PROPERTY_BYTES + estimateValueBytes((value as Record<string, unknown>)[key]);
      }
      return n;
    }
    default:
      return 8;
  }
}

/** Estimated heap bytes of a feature or row (the object, its geometry and its properties). */
export function estimateItemBytes(item: unknown): number {
  return estimateValueBytes(item);
}
