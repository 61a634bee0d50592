/**
 * Result file formats. Layers: GeoJSON (default) and GeoParquet; tables: CSV (default)
 * and Parquet. See design.md "Formats".
 */
export const LAYER_FORMATS = ["geojson", "geoparquet"] as const;
export const TABLE_FORMATS = ["csv", "parquet"] as const;
export type TLayerFormat = (typeof LAYER_FORMATS)[number];
export type TTableFormat = (typeof TABLE_FORMATS)[number];
export type TResultFormat = TLayerFormat | TTableFormat;

export const DEFAULT_FORMAT = { layer: "geojson", table: "csv" } as const satisfies Record<"layer" | "table", TResultFormat>;

export const FORMAT_INFO: Record<TResultFormat, { mediaType: string; extension: string }> = {
  geojson: { mediaType: "application/geo+json", extension: "geojson" },
  geoparquet: { mediaType: "application/vnd.apache.parquet", extension: "parquet" },
  csv: { mediaType: "text/csv; charset=utf-8", extension: "csv" },
  parquet: { mediaType: "application/vnd.apache.parquet", extension: "parquet" },
};

/** Kind of a result: a layer (features) or a table (rows). */
export type TResultKind = "layer" | "table";

/** Formats a result of each kind may be written in (first one is the default). */
export const FORMATS_BY_KIND: Record<TResultKind, readonly TResultFormat[]> = {
  layer: LAYER_FORMATS,
  table: TABLE_FORMATS,
};

/** True when `format` is a known format name (any kind). */
export function isResultFormat(format: unknown): format is TResultFormat {
  return typeof format === "string" && Object.hasOwn(FORMAT_INFO, format);
}

/** True when `format` can encode a result of `kind` (geojson/geoparquet for layers, csv/parquet for tables). */
export function formatFitsKind(kind: TResultKind, format: string): format is TResultFormat {
  return (FORMATS_BY_KIND[kind] as readonly string[]).includes(format);
}
