/**
 * GeoJSON geometry -> ISO WKB (OGC Simple Features / ISO 13249-3 well-known binary), little
 * endian, as GeoParquet 1.1 requires for `encoding: "WKB"`. Also gathers the GeoParquet
 * column statistics (`geometry_types`, `bbox`) while encoding, in the same pass.
 *
 * Dimensions: a geometry is written XY, or XYZ (ISO type code + 1000, e.g. 1001 "Point Z")
 * when any of its positions has a third element. Elements beyond the third (RFC 7946 §3.1.1
 * says positions SHOULD NOT have them) are dropped. In an XYZ geometry, a position without Z
 * gets Z = NaN. An empty Point (`coordinates: []`) is written as POINT(NaN NaN), the usual WKB
 * convention.
 */
import type { Geometry, GeometryCollection, Position } from "geojson";
import { EncodeError } from "./errors";

const TYPE_CODES: Record<Geometry["type"], number> = {
  Point: 1,
  LineString: 2,
  Polygon: 3,
  MultiPoint: 4,
  MultiLineString: 5,
  MultiPolygon: 6,
  GeometryCollection: 7,
};

/** Running GeoParquet statistics of a geometry column. */
export class GeometryStats {
  /** Distinct GeoParquet geometry type names seen ("Point", "Polygon Z", ...). */
  readonly types = new Set<string>();
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;

  /** Sorted distinct type names, as `geometry_types` wants them. */
  geometryTypes(): string[] {
    return [...this.types].sort();
  }

  /** `[minx, miny, maxx, maxy]` over all finite X/Y, or undefined when there are none. */
  bbox(): [number, number, number, number] | undefined {
    if (this.minX > this.maxX || this.minY > this.maxY) return undefined;
    return [this.minX, this.minY, this.maxX, this.maxY];
  }
}

/** Largest position length in a geometry (2 or 3; never more, never less). */
function dimensionOf(geometry: Geometry): 2 | 3 {
  if (geometry.type === "GeometryCollection") {
    for (const child of geometry.geometries) if (dimensionOf(child) === 3) return 3;
    return 2;
  }
  return coordinatesHaveZ(geometry.coordinates) ? 3 : 2;
}

function coordinatesHaveZ(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  if (typeof value[0] === "number") return value.length >= 3;
  for (const item of value) if (coordinatesHaveZ(item)) return true;
  return false;
}

/** Exact WKB size of a geometry written with `dim` ordinates per position. */
function sizeOf(geometry: Geometry, dim: number): number {
  const p = 8 * dim;
  switch (geometry.type) {
    case "Point":
      return 5 + p;
    case "LineString":
      return 9 + geometry.coordinates.length * p;
    case "Polygon": {
      let n = 9;
      for (const ring of geometry.coordinates) n += 4 + ring.length * p;
      return n;
    }
    case "MultiPoint":
      return 9 + geometry.coordinates.length * (5 + p);
    case "MultiLineString": {
      let n = 9;
      for (const line of geometry.coordinates) n += 9 + line.length * p;
      return n;
    }
    case "MultiPolygon": {
      let n = 9;
      for (const polygon of geometry.coordinates) {
        n += 9;
        for (const ring of polygon) n += 4 + ring.length * p;
      }
      return n;
    }
    case "GeometryCollection": {
      let n = 9;
      for (const child of geometry.geometries) n += sizeOf(child, dimensionOf(child));
      return n;
    }
  }
}

/**
 * Hands out WKB buffers as views into shared 1 MiB blocks, so encoding many small geometries
 * does not allocate one ArrayBuffer each. Views stay valid as long as they are referenced.
 */
export class WkbArena {
  private block = new Uint8Array(0);
  private view = new DataView(this.block.buffer);
  private used = 0;

  /** A zero-filled view of `size` bytes plus a DataView of its block and the view's offset. */
  alloc(size: number): { bytes: Uint8Array; view: DataView; offset: number } {
    if (this.used + size > this.block.length) {
      this.block = new Uint8Array(Math.max(1 << 20, size));
      this.view = new DataView(this.block.buffer);
      this.used = 0;
    }
    const offset = this.used;
    this.used += size;
    return { bytes: this.block.subarray(offset, offset + size), view: this.view, offset };
  }
}

class Cursor {
  constructor(
    readonly view: DataView,
    public offset: number,
  ) {}
  header(type: Geometry["type"], dim: number): void {
    this.view.setUint8(this.offset, 1); // little endian
    this.view.setUint32(this.offset + 1, TYPE_CODES[type] + (dim === 3 ? 1000 : 0), true);
    this.offset += 5;
  }
  count(n: number): void {
    this.view.setUint32(this.offset, n, true);
    this.offset += 4;
  }
}

function typeName(type: Geometry["type"], dim: number): string {
  return dim === 3 ? `${type} Z` : type;
}

/**
 * Encodes one GeoJSON geometry (RFC 7946) as little-endian ISO WKB.
 *
 * @param geometry a GeoJSON geometry object; coordinates are written as given (no reprojection,
 *   no rounding), in the order [x, y(, z)] = [lon, lat(, height)] for WGS 84 data.
 * @param stats optional collector; receives the geometry's type name and its X/Y extent
 *   (only finite values count toward the bbox).
 * @param arena optional allocator; the result is then a view into one of its shared blocks.
 * @returns the WKB bytes (a fresh Uint8Array, or an arena view).
 * @throws EncodeError when the object is not a valid GeoJSON geometry (unknown type, a
 *   position that is not an array of numbers, a nesting depth that does not fit the type).
 */
export function geometryToWkb(geometry: Geometry, stats?: GeometryStats, arena?: WkbArena): Uint8Array {
  if (!geometry || typeof geometry !== "object" || !(geometry.type in TYPE_CODES)) {
    throw new EncodeError(`not a GeoJSON geometry: type ${JSON.stringify((geometry as { type?: unknown })?.type)}`);
  }
  validate(geometry, 0);
  const dim = dimensionOf(geometry);
  const size = sizeOf(geometry, dim);
  if (arena) {
    const { bytes, view, offset } = arena.alloc(size);
    write(new Cursor(view, offset), geometry, dim, stats);
    return bytes;
  }
  const bytes = new Uint8Array(size);
  write(new Cursor(new DataView(bytes.buffer), 0), geometry, dim, stats);
  return bytes;
}

function write(c: Cursor, geometry: Geometry, dim: number, stats: GeometryStats | undefined): void {
  stats?.types.add(typeName(geometry.type, dim));
  c.header(geometry.type, dim);
  switch (geometry.type) {
    case "Point":
      position(c, geometry.coordinates, dim, stats, true);
      return;
    case "LineString":
      line(c, geometry.coordinates, dim, stats);
      return;
    case "Polygon":
      c.count(geometry.coordinates.length);
      for (const ring of geometry.coordinates) line(c, ring, dim, stats);
      return;
    case "MultiPoint":
      c.count(geometry.coordinates.length);
      for (const p of geometry.coordinates) {
        c.header("Point", dim);
        position(c, p, dim, stats, true);
      }
      return;
    case "MultiLineString":
      c.count(geometry.coordinates.length);
      for (const l of geometry.coordinates) {
        c.header("LineString", dim);
        line(c, l, dim, stats);
      }
      return;
    case "MultiPolygon":
      c.count(geometry.coordinates.length);
      for (const polygon of geometry.coordinates) {
        c.header("Polygon", dim);
        c.count(polygon.length);
        for (const ring of polygon) line(c, ring, dim, stats);
      }
      return;
    case "GeometryCollection":
      c.count(geometry.geometries.length);
      // children keep their own dimension; stats count only the collection's type
      for (const child of geometry.geometries) write(c, child, dimensionOf(child), undefined);
      if (stats) for (const child of geometry.geometries) extendBbox(child, stats);
      return;
  }
}

function line(c: Cursor, positions: Position[], dim: number, stats: GeometryStats | undefined): void {
  c.count(positions.length);
  for (const p of positions) position(c, p, dim, stats, false);
}

function position(c: Cursor, p: Position, dim: number, stats: GeometryStats | undefined, allowEmpty: boolean): void {
  const v = c.view;
  const o = c.offset;
  if (p.length === 0 && allowEmpty) {
    v.setFloat64(o, NaN, true);
    v.setFloat64(o + 8, NaN, true);
    if (dim === 3) v.setFloat64(o + 16, NaN, true);
  } else {
    const x = p[0];
    const y = p[1];
    v.setFloat64(o, x, true);
    v.setFloat64(o + 8, y, true);
    if (dim === 3) v.setFloat64(o + 16, p.length >= 3 ? p[2] : NaN, true);
    if (stats) {
      if (Number.isFinite(x)) {
        if (x < stats.minX) stats.minX = x;
        if (x > stats.maxX) stats.maxX = x;
      }
      if (Number.isFinite(y)) {
        if (y < stats.minY) stats.minY = y;
        if (y > stats.maxY) stats.maxY = y;
      }
    }
  }
  c.offset = o + 8 * dim;
}

function extendBbox(geometry: Geometry, stats: GeometryStats): void {
  if (geometry.type === "GeometryCollection") {
    for (const child of geometry.geometries) extendBbox(child, stats);
    return;
  }
  visitPositions(geometry.coordinates, (p) => {
    const [x, y] = p;
    if (Number.isFinite(x)) {
      if (x < stats.minX) stats.minX = x;
      if (x > stats.maxX) stats.maxX = x;
    }
    if (Number.isFinite(y)) {
      if (y < stats.minY) stats.minY = y;
      if (y > stats.maxY) stats.maxY = y;
    }
  });
}

function visitPositions(value: unknown, fn: (p: Position) => void): void {
  if (!Array.isArray(value) || value.length === 0) return;
  if (typeof value[0] === "number") {
    fn(value as Position);
    return;
  }
  for (const item of value) visitPositions(item, fn);
}

/** Nesting depth of `coordinates` per type (0 = a position). */
const DEPTH: Record<Exclude<Geometry["type"], "GeometryCollection">, number> = {
  Point: 0,
  LineString: 1,
  MultiPoint: 1,
  Polygon: 2,
  MultiLineString: 2,
  MultiPolygon: 3,
};

function validate(geometry: Geometry, level: number): void {
  if (!geometry || typeof geometry !== "object" || !(geometry.type in TYPE_CODES)) {
    throw new EncodeError(`not a GeoJSON geometry: type ${JSON.stringify((geometry as { type?: unknown })?.type)}`);
  }
  if (geometry.type === "GeometryCollection") {
    const children = (geometry as GeometryCollection).geometries;
    if (!Array.isArray(children)) throw new EncodeError("GeometryCollection without a geometries array");
    if (level > 32) throw new EncodeError("GeometryCollection nested too deeply");
    for (const child of children) validate(child, level + 1);
    return;
  }
  const coordinates = (geometry as { coordinates?: unknown }).coordinates;
  if (!checkDepth(coordinates, DEPTH[geometry.type], geometry.type === "Point")) {
    throw new EncodeError(`${geometry.type} has malformed coordinates`);
  }
}

function checkDepth(value: unknown, depth: number, allowEmptyPosition: boolean): boolean {
  if (!Array.isArray(value)) return false;
  if (depth === 0) {
    if (value.length === 0) return allowEmptyPosition;
    if (value.length < 2) return false;
    for (const n of value) if (typeof n !== "number") return false;
    return true;
  }
  for (const item of value) if (!checkDepth(item, depth - 1, false)) return false;
  return true;
}
