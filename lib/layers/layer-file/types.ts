/**
 * Shapes shared by the layer file writer and reader (see write-layer-file.ts for the format).
 */
import type { FileMetaData } from "hyparquet";
import type { TParquetColumn } from "@/lib/formats/parquet/write";
import type { TBbox } from "@/lib/geo/bbox";

export type { TBbox } from "@/lib/geo/bbox";

/** A layer of features (GeoParquet) or a table (plain Parquet). */
export type TLayerFileKind = "features" | "table";

/** One property (or table) column as written: its name in the file and its Parquet type. */
export type TLayerFileColumn = TParquetColumn;

/** What `writeLayerFile` wrote. */
export interface TLayerFileSummary {
  kind: TLayerFileKind;
  /** Features or rows written. */
  itemCount: number;
  /** `[west, south, east, north]` in degrees over every finite coordinate, null for a table or a layer without coordinates. */
  bbox: TBbox | null;
  /** GeoParquet geometry type names seen, sorted ("Point", "Polygon Z", ...); empty for a table. */
  geometryTypes: string[];
  /** Property columns (features) or columns (table), in file order; without `geometry` and `bbox`. */
  columns: TLayerFileColumn[];
  rowGroups: number;
  /** Size of the file in bytes. */
  sizeBytes: number;
}

/** Name of the GeoParquet 1.1 bbox covering column (a struct of xmin, ymin, xmax, ymax). */
export const BBOX_COLUMN = "bbox";
/**
 * File key-value metadata key of this service's own facts about a file:
 * `{"kind": "features" | "table", "renamed": {column: property}, "position": column, "members": column}`,
 * `renamed` listing properties whose names clashed with a column of the file's own (`geometry`,
 * `bbox`, ...) and were written under another name.
 */
export const LAYER_FILE_METADATA_KEY = "flow-api:layer-file";

export interface TLayerFileMetadata {
  kind: TLayerFileKind;
  renamed?: Record<string, string>;
  /** Features: the column holding each feature's position in the uploaded file (the layer's order; the file is in Hilbert order). */
  position?: string;
  /** Features: the column of each feature's `id` and `bbox` members, when some feature has one (feature-members.ts). */
  members?: string;
}

/** Name of the column holding each feature's position in the upload (see `TLayerFileMetadata.position`). */
export const POSITION_COLUMN = "input_position";

/** A file key-value metadata value (`geo`, `LAYER_FILE_METADATA_KEY`) parsed as JSON; undefined when absent or not JSON. */
export function kvJson<T>(metadata: FileMetaData, key: string): T | undefined {
  const text = metadata.key_value_metadata?.find((kv) => kv.key === key)?.value;
  try {
    return text === undefined ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}
