/**
 * Test helpers for the writer tests (not used by production code): an independent WKB
 * decoder (so GeoParquet geometry is checked by code other than the encoder) and readers
 * that open Parquet bytes with hyparquet.
 */
import type { Geometry } from "geojson";
import { parquetMetadata, parquetReadObjects, type FileMetaData } from "hyparquet";

/** Copies a Uint8Array's bytes into a standalone ArrayBuffer (what hyparquet reads). */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

const TYPES = ["", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"];

/**
 * Decodes ISO WKB (either byte order, XY / XYZ / XYM / XYZM by ISO codes 1000/2000/3000) into
 * GeoJSON; M values are dropped. Throws on unknown type codes or trailing bytes.
 */
export function decodeWkb(bytes: Uint8Array): Geometry {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  const read = (): Geometry => {
    const little = view.getUint8(offset) === 1;
    const code = view.getUint32(offset + 1, little);
    offset += 5;
    const base = code % 1000;
    const flavour = Math.floor(code / 1000); // 0 XY, 1 XYZ, 2 XYM, 3 XYZM
    const dim = flavour === 0 ? 2 : flavour === 3 ? 4 : 3;
    const keep = flavour === 1 || flavour === 3 ? 3 : 2;
    const u32 = () => {
      const n = view.getUint32(offset, little);
      offset += 4;
      return n;
    };
    const pos = () => {
      const p: number[] = [];
      for (let i = 0; i < dim; i++) {
        const v = view.getFloat64(offset, little);
        offset += 8;
        if (i < keep) p.push(v);
      }
      return p;
    };
    const line = () => Array.from({ length: u32() }, pos);
    const poly = () => Array.from({ length: u32() }, line);
    const type = TYPES[base];
    switch (type) {
      case "Point":
        return { type, coordinates: pos() };
      case "LineString":
        return { type, coordinates: line() };
      case "Polygon":
        return { type, coordinates: poly() };
      case "MultiPoint":
      case "MultiLineString":
      case "MultiPolygon": {
        const parts = Array.from({ length: u32() }, () => read() as unknown as { coordinates: unknown });
        return { type, coordinates: parts.map((g) => g.coordinates) } as Geometry;
      }
      case "GeometryCollection":
        return { type, geometries: Array.from({ length: u32() }, read) };
      default:
        throw new Error(`unknown WKB type code ${code}`);
    }
  };
  const geometry = read();
  if (offset !== bytes.byteLength) throw new Error(`WKB has ${bytes.byteLength - offset} trailing bytes`);
  return geometry;
}

/**
 * Reads a Parquet file with hyparquet: metadata and all rows. Default: GeoParquet-aware (the
 * geometry column comes back as GeoJSON). `raw`: geometry as WKB bytes.
 */
export async function readParquet(
  bytes: Uint8Array,
  { raw = false }: { raw?: boolean } = {},
): Promise<{ metadata: FileMetaData; rows: Record<string, unknown>[] }> {
  const file = toArrayBuffer(bytes);
  const metadata = parquetMetadata(file, { geoparquet: !raw });
  // raw: un-annotated BYTE_ARRAY (the WKB column) stays bytes instead of being read as text
  const rows = await parquetReadObjects({ file, metadata, utf8: !raw });
  return { metadata, rows };
}

/** The root-level leaf columns of a Parquet schema: name -> physical type (+ converted type). */
export function schemaTypes(metadata: FileMetaData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const element of metadata.schema.slice(1)) {
    out[element.name] = element.converted_type ? `${element.type}/${element.converted_type}` : String(element.type);
  }
  return out;
}

/** Parsed `geo` key-value metadata, or undefined. */
export function geoMetadata(metadata: FileMetaData): Record<string, unknown> | undefined {
  const value = metadata.key_value_metadata?.find((kv) => kv.key === "geo")?.value;
  return value === undefined ? undefined : (JSON.parse(value) as Record<string, unknown>);
}
