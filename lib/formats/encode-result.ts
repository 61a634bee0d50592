/**
 * Entry point of the result writers: one engine result in one requested format -> file bytes
 * plus what the API needs to serve it (media type, extension, feature/row count). The formats
 * are those of the registry (./registry.ts); each one's writer is in its folder.
 */
import type { TFeatureSet, TTable } from "@/lib/engine/types";
import type { TColumns } from "@/lib/steps/columns";
import { withColumns } from "@/lib/steps/dataset";
import type { TStreamOptions } from "./byte-chunks";
import { encodeCsv } from "./csv/write";
import { FormatMismatchError } from "./errors";
import { encodeGeoJson } from "./geojson/write";
import { encodeGeoParquet } from "./geoparquet/write";
import { encodeParquet, orderedNames } from "./parquet/write";
import { FORMAT_INFO, formatFitsKind, isResultFormat, type TResultFormat } from "./registry";

/**
 * A result to encode: a layer (features) or a table (rows), with its columns as derived from
 * the flow when known (`runFlow` sets them): they are written first, with fixed types, on
 * every run (see `TParquetOptions.columns`; CSV: the header).
 */
export type TEncodableResult = ({ kind: "layer"; data: TFeatureSet } | { kind: "table"; data: TTable }) & { columns?: TColumns };

/** An encoded result file. */
export interface TEncodedResult {
  /** The complete file (empty when `options.sink` took it chunk by chunk). */
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

type TWriteOptions = TStreamOptions & { columns?: TColumns };
type TWritten = { body: Uint8Array; featureCount?: number; rowCount?: number };

/** The writer of each format of the registry (its kind is checked before it is called). */
const WRITERS: Record<TResultFormat, (data: TFeatureSet | TTable, options: TWriteOptions) => Promise<TWritten>> = {
  geojson: (layer, options) => encodeGeoJson(layer as TFeatureSet, options),
  geoparquet: (layer, options) => encodeGeoParquet(layer as TFeatureSet, options),
  csv: (table, options) => encodeCsv(table as TTable, options),
  parquet: (table, options) => encodeParquet(table as TTable, options),
};

/**
 * Encodes one result in `format` (see each format's writer: lib/formats/<format>/write.ts).
 * A table's declared columns come first, in their order, then its others.
 *
 * @returns `{body, featureCount | rowCount, mediaType, extension}` (media type and extension
 *   from the format's definition).
 * @throws FormatMismatchError for an unknown format or one that does not fit the kind;
 *   EncodeError when the data cannot be written (invalid geometry, duplicate column names);
 *   the signal's reason when aborted.
 */
export async function encodeResult(result: TEncodableResult, format: TResultFormat, options: TStreamOptions = {}): Promise<TEncodedResult> {
  if (!isResultFormat(format)) throw new FormatMismatchError(`unknown result format ${JSON.stringify(format)}`);
  if (!formatFitsKind(result.kind, format)) {
    throw new FormatMismatchError(`format ${format} does not fit a ${result.kind} result`);
  }
  const { mediaType, extension } = FORMAT_INFO[format];
  const data: TFeatureSet | TTable =
    result.kind === "table" && result.columns ? withColumns(result.data, orderedNames(result.columns, result.data.columns)) : result.data;
  const { body, featureCount, rowCount } = await WRITERS[format](data, { ...options, columns: result.columns });
  return { body, ...(result.kind === "layer" ? { featureCount } : { rowCount }), mediaType, extension };
}
