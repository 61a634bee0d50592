/**
 * A GeoParquet 1.x upload (https://geoparquet.org/releases/v1.1.0/, Apache Parquet with the
 * `geo` key-value metadata) read with hyparquet, one slice of a row group at a time:
 * `parseGeoParquetFile(file, limits)` yields features whose geometry is the `geo` metadata's
 * `primary_column` (WKB, decoded to GeoJSON by hyparquet) and whose properties are the other
 * columns (int64 values as numbers when within ±(2^53 - 1), else as decimal strings, since
 * JSON has no 64-bit integers). Columns that only derive from the geometry are not properties
 * and are not decoded: the bbox "covering" columns GeoParquet 1.1 declares in `geo`, and, in a
 * file this service wrote (lib/layers/layer-file), its position column; that file's renamed
 * columns get their names back.
 *
 * The footer is trusted for nothing: before a single page is decoded, `readGeoParquetFooter`
 * checks every count and size it declares against the file and the limits, so an 8 KB file
 * whose footer claims 4 billion rows is refused having read 8 KB. Row groups are then decoded
 * in slices of about `SLICE_BYTES` of declared uncompressed data, so memory follows a slice.
 *
 * Features are checked like GeoJSON ones (lib/geo/validate-geojson.ts): faults are named
 * `/file/features/<i>/geometry/...` with "Row <i + 1>: ..." (rows counted from 1), up to 20
 * listed, reading stops after the 21st. A cell that cannot be decoded is such a fault too:
 * geometry bytes that are not WKB (`invalid_wkb` at `.../geometry`), text that is not UTF-8
 * (`undecodable` at `.../properties/<column>`).
 *
 * @throws AppError `payload_too_large` when `file.byteLength` passes `limits.maxBytes`;
 *   `validation_failed` at `/file`: `required` (empty), `invalid_parquet` (not Parquet, a
 *   footer that contradicts the file, a page hyparquet cannot decode), `too_many_rows`
 *   (declared rows past `limits.maxItems`), `too_large` (footer, row group, `geo` metadata
 *   or column count past its cap), `no_geometry` (no `geo` metadata, or its primary column
 *   is missing or not WKB), `unsupported_crs` (the primary column's `crs` is null, i.e.
 *   unknown, or names a CRS other than OGC:CRS84 / EPSG:4326, crs.ts; a missing `crs` is
 *   OGC:CRS84 by the specification); and the per-row faults above.
 */
import { parquetMetadata, parquetReadObjects, parquetSchema, type AsyncBuffer, type FileMetaData } from "hyparquet";
import { DEFAULT_PARSERS } from "hyparquet/src/convert.js";
import { markGeoColumns } from "hyparquet/src/geoparquet.js";
import type { ParquetParsers } from "hyparquet/src/types.js";
import { AppError, jsonPointer } from "@/lib/errors";
import type { TFeature } from "@/lib/engine/types";
import { describeCrs, isLonLatCrs, REPROJECT_HINT } from "./crs";
import { checkFeature } from "./feature";
import { DEFAULT_PARSE_LIMITS, emptyFile, formatBytes, tooLarge, type TParseLimits } from "./limits";
import { fileFault, ProblemList } from "./problems";
import { firstInvalidUtf8 } from "./utf8";
import { kvJson, LAYER_FILE_METADATA_KEY, type TLayerFileMetadata } from "@/lib/layers/layer-file/types";
import { setOwn } from "@/lib/steps/dataset";

/** Largest footer (file metadata) read, bytes: a footer describes, it never holds data. */
export const MAX_PARQUET_FOOTER_BYTES = 16 * 1024 * 1024;
/** Largest `geo` metadata value, bytes (a few hundred in practice; more only with a large PROJJSON crs). */
export const MAX_GEO_METADATA_BYTES = 1024 * 1024;
/** Largest declared uncompressed size of one row group (all its column chunks), bytes. */
export const MAX_ROW_GROUP_BYTES = 512 * 1024 * 1024;
/** Most row groups in one file. */
export const MAX_ROW_GROUPS = 100_000;
/** Most leaf columns. */
export const MAX_PARQUET_COLUMNS = 4_096;
/** Target declared uncompressed bytes decoded at once (a row group is read in slices of about this). */
const SLICE_BYTES = 32 * 1024 * 1024;
/** Fewest rows in a slice, so that tiny slices do not re-read a large column chunk too often. */
const MIN_SLICE_ROWS = 1_024;

const PAR1 = 0x31524150; // "PAR1" read as a little-endian uint32

export interface TGeoParquetFooter {
  metadata: FileMetaData;
  /** The `geo` metadata's primary column, WKB-encoded. */
  geometryColumn: string;
  /** The top-level columns read as properties (`column` in the file, `key` in the properties), in file order. */
  properties: { column: string; key: string }[];
}

const invalid = (message: string) => fileFault("invalid_parquet", message);
const tooBig = (message: string) => fileFault("too_large", message);

/**
 * Reads and checks the footer of a GeoParquet file (see module doc): at most the last
 * `MAX_PARQUET_FOOTER_BYTES + 8` bytes and the first 4 are read.
 */
export async function readGeoParquetFooter(file: AsyncBuffer, limits: TParseLimits = DEFAULT_PARSE_LIMITS): Promise<TGeoParquetFooter> {
  const size = file.byteLength;
  if (size > limits.maxBytes) throw tooLarge(limits.maxBytes);
  if (size === 0) throw emptyFile();
  if (size < 12) throw invalid(`The file is not Parquet: ${size} bytes is too short.`);
  const tail = new DataView(await file.slice(size - 8, size));
  const head = new DataView(await file.slice(0, 4));
  if (tail.getUint32(4, true) !== PAR1 || head.getUint32(0, true) !== PAR1) throw invalid("The file is not Parquet (it does not start and end with PAR1).");
  const footerBytes = tail.getUint32(0, true);
  if (footerBytes > size - 12) throw invalid(`The file's footer claims ${footerBytes} bytes of metadata, but the file has ${size} bytes in all.`);
  if (footerBytes > MAX_PARQUET_FOOTER_BYTES)
    throw tooBig(`The file's footer claims ${formatBytes(footerBytes)} of metadata; at most ${formatBytes(MAX_PARQUET_FOOTER_BYTES)} are read.`);
  const dataEnd = size - 8 - footerBytes;

  let metadata: FileMetaData;
  try {
    // `geo` is read below, after its size is checked (hyparquet would parse it first).
    metadata = parquetMetadata(await file.slice(dataEnd, size), { geoparquet: false });
  } catch (e) {
    throw invalid(`The file cannot be read as (Geo)Parquet: ${(e as Error).message}`);
  }

  const declared = metadata.num_rows;
  if (typeof declared !== "bigint" || declared < 0n) throw invalid(`The file's footer declares ${String(declared)} rows.`);
  if (declared > BigInt(limits.maxItems))
    throw fileFault("too_many_rows", `The file's footer declares ${declared} rows; at most ${limits.maxItems} rows are accepted.`);
  const groups = metadata.row_groups;
  if (groups.length > MAX_ROW_GROUPS) throw tooBig(`The file's footer declares ${groups.length} row groups; at most ${MAX_ROW_GROUPS} are read.`);
  const leaves = metadata.schema.filter((e) => e.type !== undefined).length;
  if (leaves > MAX_PARQUET_COLUMNS) throw tooBig(`The file's footer declares ${leaves} columns; at most ${MAX_PARQUET_COLUMNS} are read.`);

  let sum = 0n;
  for (const [g, group] of groups.entries()) {
    if (group.num_rows < 0n) throw invalid(`Row group ${g} declares ${group.num_rows} rows.`);
    sum += group.num_rows;
    if (group.columns.length !== leaves) throw invalid(`Row group ${g} has ${group.columns.length} column chunks for ${leaves} columns.`);
    let uncompressed = 0n;
    for (const [c, chunk] of group.columns.entries()) {
      const meta = chunk.meta_data;
      const name = `Column chunk ${c} of row group ${g}`;
      if (!meta) throw invalid(`${name} has no metadata.`);
      if (chunk.file_path) throw invalid(`${name} lives in another file (${chunk.file_path}); only self-contained files are read.`);
      const start = meta.dictionary_page_offset || meta.data_page_offset;
      const end = start + meta.total_compressed_size;
      if (start < 4n || meta.total_compressed_size < 0n || end > BigInt(dataEnd))
        throw invalid(`${name} claims bytes ${start}..${end}, outside the file's ${dataEnd} bytes of data.`);
      if (meta.total_uncompressed_size < 0n) throw invalid(`${name} declares ${meta.total_uncompressed_size} uncompressed bytes.`);
      uncompressed += meta.total_uncompressed_size;
    }
    if (uncompressed > BigInt(MAX_ROW_GROUP_BYTES))
      throw tooBig(
        `Row group ${g} declares ${formatBytes(Number(uncompressed))} of uncompressed data; at most ${formatBytes(MAX_ROW_GROUP_BYTES)} per row group are read.`,
      );
  }
  if (sum !== declared) throw invalid(`The file's footer declares ${declared} rows, but its row groups hold ${sum}.`);

  const geo = metadata.key_value_metadata?.find((kv) => kv.key === "geo")?.value;
  const noGeometry = (why: string) =>
    fileFault("no_geometry", `No GeoParquet geometry column found (${why}; the file needs GeoParquet \`geo\` metadata and a WKB column).`);
  if (geo === undefined) throw noGeometry("no `geo` metadata");
  if (Buffer.byteLength(geo) > MAX_GEO_METADATA_BYTES)
    throw tooBig(`The file's \`geo\` metadata is ${formatBytes(Buffer.byteLength(geo))}; at most ${formatBytes(MAX_GEO_METADATA_BYTES)} are read.`);
  let parsed: {
    primary_column?: unknown;
    columns?: Record<string, { encoding?: unknown; crs?: unknown; covering?: { bbox?: Record<string, unknown> } } | undefined>;
  };
  try {
    parsed = JSON.parse(geo) as typeof parsed;
  } catch (e) {
    throw invalid(`The file's \`geo\` metadata is not JSON: ${(e as Error).message}`);
  }
  const primary = parsed?.primary_column;
  if (typeof primary !== "string") throw noGeometry("the `geo` metadata names no primary_column");
  const encoding = parsed.columns?.[primary]?.encoding;
  if (encoding !== "WKB") throw noGeometry(`the primary column "${primary}" is encoded as ${JSON.stringify(encoding)}, not WKB`);
  // GeoParquet 1.1: a missing crs is OGC:CRS84; null says the CRS is unknown, which cannot be taken for degrees (crs.ts).
  const column = parsed.columns![primary]!;
  if (Object.hasOwn(column, "crs") && column.crs === null)
    throw fileFault(
      "unsupported_crs",
      `The geometry column "${primary}" declares its CRS unknown (crs: null); only longitude/latitude on WGS 84 (OGC:CRS84, EPSG:4326) is read: if the coordinates are longitude/latitude, set the CRS (e.g. GeoPandas set_crs(4326)), else ${REPROJECT_HINT}.`,
    );
  if (Object.hasOwn(column, "crs") && !isLonLatCrs(column.crs))
    throw fileFault(
      "unsupported_crs",
      `The geometry column "${primary}" declares the CRS ${describeCrs(column.crs)}; only longitude/latitude on WGS 84 (OGC:CRS84, EPSG:4326) is read: ${REPROJECT_HINT}.`,
    );
  // hyparquet's GeoParquet support, now that `geo` passed its checks: every top-level BYTE_ARRAY
  // column it declares WKB gets the GEOMETRY (or GEOGRAPHY) logical type, decoded to GeoJSON.
  markGeoColumns(metadata.schema, metadata.key_value_metadata);
  const geometryType = parquetSchema(metadata).children.find((c) => c.element.name === primary)?.element.logical_type?.type;
  if (geometryType !== "GEOMETRY" && geometryType !== "GEOGRAPHY") throw noGeometry(`the primary column "${primary}" is not a top-level binary column`);
  return { metadata, geometryColumn: primary, properties: propertyColumns(metadata, parsed.columns ?? {}, primary) };
}

/** The property columns of a checked footer (see module doc for what is left out). */
function propertyColumns(metadata: FileMetaData, geoColumns: Record<string, { covering?: { bbox?: Record<string, unknown> } } | undefined>, primary: string) {
  const derived = new Set<string>([primary]);
  for (const declared of Object.values(geoColumns))
    for (const path of Object.values(declared?.covering?.bbox ?? {})) if (Array.isArray(path) && typeof path[0] === "string") derived.add(path[0]);
  // not ours (no such metadata, or not JSON): every column is a property
  const own = kvJson<Partial<TLayerFileMetadata>>(metadata, LAYER_FILE_METADATA_KEY) ?? {};
  if (typeof own.position === "string") derived.add(own.position);
  const renamed = own.renamed && typeof own.renamed === "object" ? own.renamed : {};
  return parquetSchema(metadata)
    .children.map(({ element }) => element.name)
    .filter((column) => !derived.has(column))
    .map((column) => ({ column, key: Object.hasOwn(renamed, column) && typeof renamed[column] === "string" ? renamed[column] : column }));
}

/**
 * A cell hyparquet could not decode, in place of its value: WKB that is not WKB (hyparquet's
 * decoder throws "Offset is outside the bounds of the DataView", which named no row and ended
 * the whole read), text that is not UTF-8 (hyparquet's decoder would put U+FFFD in its place).
 * The row that holds one is named instead.
 */
class Undecodable {
  constructor(readonly what: string) {}
}

const utf8Fatal = new TextDecoder("utf-8", { fatal: true });

/** hyparquet's decoders, each giving an `Undecodable` for what it cannot decode instead of throwing or replacing. */
const PARSERS: Partial<ParquetParsers> = {
  geometryFromBytes: (bytes) => wkb(bytes, DEFAULT_PARSERS.geometryFromBytes),
  geographyFromBytes: (bytes) => wkb(bytes, DEFAULT_PARSERS.geographyFromBytes),
  stringFromBytes: (bytes) => {
    if (!bytes) return bytes;
    try {
      return utf8Fatal.decode(bytes);
    } catch {
      return new Undecodable(`is not UTF-8 text (byte offset ${firstInvalidUtf8(bytes)} of the value)`);
    }
  },
};

function wkb(bytes: Uint8Array, decode: (bytes: Uint8Array) => unknown): unknown {
  try {
    return decode(bytes);
  } catch (e) {
    return new Undecodable(`is not valid WKB (${bytes.byteLength} bytes: ${(e as Error).message})`);
  }
}

/** A property value as stored: int64 as a number when exact, else its decimal text. */
function propertyValue(v: unknown): unknown {
  if (typeof v !== "bigint") return v;
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

/** Yields the valid features of a GeoParquet file, row group by row group (see module doc). */
export async function* parseGeoParquetFile(
  file: AsyncBuffer,
  limits: TParseLimits = DEFAULT_PARSE_LIMITS,
  /** Tests only: rows per decoded slice instead of the size-based choice. */
  testSliceRows?: number,
): AsyncGenerator<TFeature> {
  const { metadata, geometryColumn, properties: columns } = await readGeoParquetFooter(file, limits);
  const readColumns = [...columns.map((c) => c.column), geometryColumn];
  const problems = new ProblemList("The GeoParquet file");
  let groupStart = 0;
  for (const group of metadata.row_groups) {
    const groupRows = Number(group.num_rows);
    const bytes = group.columns.reduce((n, c) => n + Number(c.meta_data!.total_uncompressed_size), 0);
    const sliceRows = testSliceRows ?? Math.max(MIN_SLICE_ROWS, Math.floor((groupRows * SLICE_BYTES) / Math.max(bytes, 1)));
    for (let from = groupStart; from < groupStart + groupRows; from += sliceRows) {
      const to = Math.min(from + sliceRows, groupStart + groupRows);
      let rows: Record<string, unknown>[];
      try {
        rows = (await parquetReadObjects({ file, metadata, columns: readColumns, rowStart: from, rowEnd: to, parsers: PARSERS })) as Record<string, unknown>[];
      } catch (e) {
        if (e instanceof AppError) throw e;
        throw invalid(`The file cannot be read as (Geo)Parquet: ${(e as Error).message}`);
      }
      if (rows.length !== to - from) throw invalid(`Rows ${from + 1}..${to} could not be read: the file holds ${rows.length} of them.`);
      const ready: TFeature[] = [];
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        const properties: Record<string, unknown> = {};
        for (const { column, key } of columns) {
          // own cells only: a column may be called "__proto__"
          setOwn(properties, key, Object.hasOwn(row, column) ? propertyValue(row[column]) : null);
        }
        const index = from + i;
        let undecodable = false;
        for (const { column, key } of columns) {
          const value = properties[key];
          if (!(value instanceof Undecodable)) continue;
          undecodable = true;
          problems.add({
            field: `/file${jsonPointer(["features", index, "properties", key])}`,
            code: "undecodable",
            message: `Row ${index + 1}, column ${JSON.stringify(column)}: the value ${value.what}.`,
          });
        }
        const geometry = row[geometryColumn] ?? null;
        if (geometry instanceof Undecodable) {
          undecodable = true;
          problems.add({
            field: `/file/features/${index}/geometry`,
            code: "invalid_wkb",
            message: `Row ${index + 1}: the geometry (column ${JSON.stringify(geometryColumn)}) ${geometry.what}.`,
          });
        }
        const feature = undecodable ? undefined : checkFeature({ type: "Feature", geometry, properties }, index, problems, `Row ${index + 1}`, "column");
        if (feature) ready.push(feature);
      }
      problems.throwIfFull();
      yield* ready;
    }
    groupStart += groupRows;
  }
  problems.throwIfAny();
}
