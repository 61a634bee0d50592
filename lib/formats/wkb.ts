/**
 * GeoJSON geometry -> ISO WKB (OGC Simple Features / ISO 13249-3 well-known binary), little
 * endian, as GeoParquet 1.1 requires for `encoding: "WKB"`, and the GeoParquet column
 * statistics (`geometry_types`, `bbox`) of what was encoded.
 *
 * Dimensions: a geometry is written XY, or XYZ (ISO type code + 1000, e.g. 1001 "Point Z")
 * when any of its positions has a third element. Elements beyond the third (RFC 7946 §3.1.1
 * says positions SHOULD NOT have them) are dropped. In an XYZ geometry, a position without Z
 * gets Z = NaN. An empty Point (`coordinates: []`) is written as POINT(NaN NaN), the usual WKB
 * convention.
 *
 * Not hyparquet-writer's `geojsonToWkb`: it gives the same bytes for every world-cities and
 * world-countries geometry, but allocates a 1 KiB buffer per geometry (11-25x slower on the
 * 135,233 cities: bench rows "write 135,233 points as GeoParquet" and "import 10M points"),
 * throws on an empty Point and on positions of mixed dimension, and writes XYZM for a
 * position of four numbers.
 */
import type { Geometry, GeometryCollection, Position } from "geojson";
import { extendBbox, geometryBbox, type TBbox } from "@/lib/geo/bbox";
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
  private readonly types = new Set<string>();
  private readonly box: TBbox = [Infinity, Infinity, -Infinity, -Infinity];

  /** Counts one geometry: its type name (a collection's own, not its members') and its finite X/Y (`box`: its `geometryBbox`, when known). */
  add(geometry: Geometry, box: TBbox | null = geometryBbox(geometry)): void {
    this.types.add(dimensionOf(geometry) === 3 ? `${geometry.type} Z` : geometry.type);
    extendBbox(this.box, box);
  }

  /** Sorted distinct type names, as `geometry_types` wants them. */
  geometryTypes(): string[] {
    return [...this.types].sort();
  }

  /** `[minx, miny, maxx, maxy]` over all finite X/Y, or undefined when there are none. */
  bbox(): TBbox | undefined {
    return this.box[0] <= this.box[2] && this.box[1] <= this.box[3] ? [...this.box] : undefined;
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

/**
 * Encodes one GeoJSON geometry (RFC 7946) as little-endian ISO WKB.
 *
 * @param geometry a GeoJSON geometry object; coordinates are written as given (no reprojection,
 *   no rounding), in the order [x, y(, z)] = [lon, lat(, height)] for WGS 84 data.
 * @param arena optional allocator; the result is then a view into one of its shared blocks.
 * @returns the WKB bytes (a fresh Uint8Array, or an arena view).
 * @throws EncodeError when the object is not a valid GeoJSON geometry (unknown type, a
 *   position that is not an array of numbers, a nesting depth that does not fit the type).
 */
export function geometryToWkb(geometry: Geometry, arena?: WkbArena): Uint8Array {
  validate(geometry, 0);
  const dim = dimensionOf(geometry);
  const size = sizeOf(geometry, dim);
  if (arena) {
    const { bytes, view, offset } = arena.alloc(size);
    write(new Cursor(view, offset), geometry, dim);
    return bytes;
  }
  const bytes = new Uint8Array(size);
  write(new Cursor(new DataView(bytes.buffer), 0), geometry, dim);
  return bytes;
}

function write(c: Cursor, geometry: Geometry, dim: number): void {
  c.header(geometry.type, dim);
  switch (geometry.type) {
    case "Point":
      position(c, geometry.coordinates, dim, true);
      return;
    case "LineString":
      line(c, geometry.coordinates, dim);
      return;
    case "Polygon":
      c.count(geometry.coordinates.length);
      for (const ring of geometry.coordinates) line(c, ring, dim);
      return;
    case "MultiPoint":
      c.count(geometry.coordinates.length);
      for (const p of geometry.coordinates) {
        c.header("Point", dim);
        position(c, p, dim, true);
      }
      return;
    case "MultiLineString":
      c.count(geometry.coordinates.length);
      for (const l of geometry.coordinates) {
        c.header("LineString", dim);
        line(c, l, dim);
      }
      return;
    case "MultiPolygon":
      c.count(geometry.coordinates.length);
      for (const polygon of geometry.coordinates) {
        c.header("Polygon", dim);
        c.count(polygon.length);
        for (const ring of polygon) line(c, ring, dim);
      }
      return;
    case "GeometryCollection":
      c.count(geometry.geometries.length);
      // children keep their own dimension
      for (const child of geometry.geometries) write(c, child, dimensionOf(child));
      return;
  }
}

function line(c: Cursor, positions: Position[], dim: number): void {
  c.count(positions.length);
  for (const p of positions) position(c, p, dim, false);
}

function position(c: Cursor, p: Position, dim: number, allowEmpty: boolean): void {
  const v = c.view;
  const o = c.offset;
  const empty = p.length === 0 && allowEmpty;
  v.setFloat64(o, empty ? NaN : p[0], true);
  v.setFloat64(o + 8, empty ? NaN : p[1], true);
  if (dim === 3) v.setFloat64(o + 16, p.length >= 3 ? p[2] : NaN, true);
  c.offset = o + 8 * dim;
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
