/**
 * Entry point of the result writers: one engine result in one requested format -> file bytes
 * plus what the API needs to serve it (media type, extension, feature/row count).
 */
import { withColumns, type TFeatureSet, type TTable } from "@/lib/engine/types";
import { encodeCsv } from "./csv";
import type { TByteSink, TPace } from "./byte-chunks";
import { FormatMismatchError } from "./errors";
import { encodeGeoJson } from "./geojson";
import { encodeGeoParquet, encodeParquet, orderedNames, type TParquetOptions } from "./parquet";
import type { TColumns } from "@/lib/steps/columns";
import { FORMAT_INFO, formatFitsKind, isResultFormat, type TResultFormat } from "./types";

/** A result to encode: a layer (features) or a table (rows). */
/**
 * A result to encode: a layer (features) or a table (rows), with its columns as derived from
 * the flow when known (`runFlow` sets them): they are written first, with fixed types, on
 * every run (see `TParquetOptions.columns`; CSV: the header).
 */
export type TEncodableResult = ({ kind: "layer"; data: TFeatureSet } | { kind: "table"; data: TTable }) & { columns?: TColumns };

/** An encoded result file. */
export interface TEncodedResult {
  /** The complete file (empty when `TEncodeOptions.sink` took it chunk by chunk). */
  body: Uint8Array;
  /** Number of features (layers only). */
  featureCount?: number;
  /** Number of data rows (tables only; CSV header not counted). */
  rowCount?: number;
  /** HTTP media type, e.g. `application/geo+json`. */
  mediaType: string;
  /** File name extension without dot, e.g. `geojson`. */
  extension: string;
}

export interface TEncodeOptions {
  /** Aborts long encodings (checked between chunks/row groups); rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Streams the file: each chunk (about 1 MiB) goes to the sink, in order, as soon as it is
   * written, and `body` is empty; the caller keeps or stores the chunks.
   */
  sink?: TByteSink;
  /** Awaited between slices of the input: lets the consumer of `sink` hold the writer back. */
  pace?: TPace;
  /** Parquet/GeoParquet: maximum rows per row group (default `DEFAULT_ROW_GROUP_ROWS`, 8,192). */
  rowGroupRows?: TParquetOptions["rowGroupRows"];
}

/**
 * Encodes one result in `format`.
 *
 * - layer + `geojson`: RFC 7946 FeatureCollection (UTF-8), see `encodeGeoJson`.
 * - layer + `geoparquet`: GeoParquet 1.1 (WKB `geometry`, `geo` metadata), see `encodeGeoParquet`.
 * - table + `csv`: RFC 4180 CSV with CRLF and a header row (UTF-8), see `encodeCsv`.
 * - table + `parquet`: Apache Parquet, declared column types or inferred ones, see `encodeParquet`.
 *
 * @returns `{body, featureCount | rowCount, mediaType, extension}` (media type and extension
 *   from `FORMAT_INFO`).
 * @throws FormatMismatchError for an unknown format or one that does not fit the kind;
 *   EncodeError when the data cannot be written (invalid geometry, duplicate column names);
 *   the signal's reason when aborted.
 */
export async function encodeResult(result: TEncodableResult, format: TResultFormat, options: TEncodeOptions = {}): Promise<TEncodedResult> {
  if (!isResultFormat(format)) throw new FormatMismatchError(`unknown result format ${JSON.stringify(format)}`);
  if (!formatFitsKind(result.kind, format)) {
    throw new FormatMismatchError(`format ${format} does not fit a ${result.kind} result`);
  }
  const info = FORMAT_INFO[format];
  const meta = { mediaType: info.mediaType, extension: info.extension };
  if (result.kind === "layer") {
    if (format === "geojson") {
      const { body, featureCount } = await encodeGeoJson(result.data, options);
      return { body, featureCount, ...meta };
    }
    const { body, featureCount } = await encodeGeoParquet(result.data, { ...options, columns: result.columns });
    return { body, featureCount, ...meta };
  }
  const table = result.columns ? withColumns(result.data, orderedNames(result.columns, result.data.columns)) : result.data;
  if (format === "csv") {
    const { body, rowCount } = await encodeCsv(table, options);
    return { body, rowCount, ...meta };
  }
  const { body, rowCount } = await encodeParquet(table, { ...options, columns: result.columns });
  return { body, rowCount, ...meta };
}
