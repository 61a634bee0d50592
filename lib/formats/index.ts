/** Result file writers (GeoJSON, GeoParquet 1.1, CSV, Parquet). Pure: no I/O, no server-only. */
export { encodeResult, type TEncodableResult, type TEncodedResult, type TEncodeOptions } from "./encode-result";
export { encodeGeoJson, type TGeoJsonOptions } from "./geojson";
export { encodeCsv, CSV_RECORD_DELIMITER, type TCsvOptions } from "./csv";
export {
  encodeParquet,
  encodeGeoParquet,
  GEOMETRY_COLUMN,
  DEFAULT_ROW_GROUP_ROWS,
  type TParquetOptions,
  type TGeoMetadata,
} from "./parquet";
export { inferColumnType, scalarToText, type TColumnType } from "./column-types";
export { geometryToWkb, GeometryStats } from "./wkb";
export { EncodeError, FormatMismatchError } from "./errors";
export * from "./types";
