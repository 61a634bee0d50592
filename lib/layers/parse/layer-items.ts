/**
 * One entry point over the upload parsers for the import process (lib/layers/import-process.ts):
 * an upload's format and bytes in, the layer's kind and its items out, checked as they stream.
 *
 * - `geojson`, `geojsonseq`: features from the byte stream.
 * - `csv`: a points layer when longitude/latitude columns are found (and `asTable` is not set), else a table. Its numeric
 *   columns are known only once every row was read (a column is numbers when every non-empty
 *   value is one), so the upload is read twice: once to validate it and decide the column
 *   types, then again to yield the typed items. The staged upload sits in the blob store, so a
 *   second read costs time, not memory.
 * - `geoparquet`: features from the file, row group by row group, after its footer passed every
 *   limit (lib/layers/parse/geoparquet-file.ts).
 *
 * @throws what the parsers throw: AppError `validation_failed` (fields named by feature, row and
 *   column), `payload_too_large`.
 */
import type { AsyncBuffer } from "hyparquet";
import { parseCsvStream, typedCsvItem } from "./csv-stream";
import { parseGeoJsonSeqStream } from "./geojson-seq-stream";
import { parseGeoJsonStream } from "./geojson-stream";
import { parseGeoParquetFile } from "./geoparquet-file";
import { DEFAULT_PARSE_LIMITS, type TParseLimits } from "./limits";
import type { TFeature, TRow } from "@/lib/engine/types";

type TLayerItem = TFeature | TRow;

export const UPLOAD_FORMATS = ["geojson", "geojsonseq", "csv", "geoparquet"] as const;
export type TUploadFormat = (typeof UPLOAD_FORMATS)[number];

/** The upload's bytes: a stream that can be opened again (text formats), or random access (GeoParquet). */
export type TUploadSource = { kind: "stream"; open: () => AsyncIterable<Uint8Array> } | { kind: "file"; file: AsyncBuffer };

export interface TLayerItems {
  kind: "features" | "table";
  items: AsyncIterable<TLayerItem>;
}

async function* typed(items: AsyncIterable<TLayerItem>, types: Parameters<typeof typedCsvItem>[1]): AsyncGenerator<TLayerItem> {
  for await (const item of items) yield typedCsvItem(item, types);
}

export async function layerItems(
  format: TUploadFormat,
  source: TUploadSource,
  opts: { lonColumn?: string; latColumn?: string; asTable?: boolean; limits?: TParseLimits } = {},
): Promise<TLayerItems> {
  const limits = opts.limits ?? DEFAULT_PARSE_LIMITS;
  if (format === "geoparquet") {
    if (source.kind !== "file") throw new Error("a GeoParquet upload is read from a file");
    return { kind: "features", items: parseGeoParquetFile(source.file, limits) };
  }
  if (source.kind !== "stream") throw new Error(`a ${format} upload is read as a stream`);
  if (format === "geojson") return { kind: "features", items: parseGeoJsonStream(source.open(), limits) };
  if (format === "geojsonseq") return { kind: "features", items: parseGeoJsonSeqStream(source.open(), limits) };
  const check = parseCsvStream(source.open(), { lonColumn: opts.lonColumn, latColumn: opts.latColumn, asTable: opts.asTable }, limits);
  for await (const _item of check) {
    // validating and learning the column types; the items are read again below
  }
  const types = check.columnTypes();
  const items = parseCsvStream(source.open(), { lonColumn: opts.lonColumn, latColumn: opts.latColumn, asTable: opts.asTable }, limits);
  return { kind: check.kind ?? "table", items: typed(items, types) };
}
