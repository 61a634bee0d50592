/**
 * Streaming readers of layer uploads (GeoJSON FeatureCollection, GeoJSON text sequences,
 * CSV, GeoParquet): each yields items one at a time, features (`TFeature`) or, for a CSV
 * without position columns, rows (`TRow`), checked as they arrive, within `TParseLimits`.
 * Their faults are AppError `validation_failed` listing at most 20 field errors named by
 * JSON Pointer into the upload (`/file/features/12/geometry/coordinates`, `/file/rows/3/lon`).
 */
import type { TFeature, TRow } from "@/lib/engine/types";

/** What the parsers yield: a feature, or a table row (CSV without position columns). */
export type TLayerItem = TFeature | TRow;

export { parseCsvStream, csvValue, typedCsvItem, CsvLayerStream, type TCsvColumnType, type TCsvOptions } from "./csv-stream";
export { parseGeoJsonSeqStream } from "./geojson-seq-stream";
export { parseGeoJsonStream } from "./geojson-stream";
export { parseGeoParquetFile, readGeoParquetFooter, type TGeoParquetFooter } from "./geoparquet-file";
export { DEFAULT_PARSE_LIMITS, MAX_LAYER_ITEM_BYTES, MAX_LAYER_ITEMS, MAX_LAYER_UPLOAD_BYTES, type TParseLimits } from "./limits";
export { MAX_LISTED_PROBLEMS } from "./problems";
export { LayerSummary } from "./summary";
export { layerItems, UPLOAD_FORMATS, type TLayerItems, type TUploadFormat, type TUploadSource } from "./layer-items";
