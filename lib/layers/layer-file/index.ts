/**
 * Layer files: layers as GeoParquet 1.1 sorted along a Hilbert curve, tables as Parquet, written
 * streaming in bounded memory and read back by row groups that meet a box (see
 * write-layer-file.ts and read-layer-file.ts for the format and the rules).
 */
export { DEFAULT_ROW_GROUP_ROWS, DEFAULT_SORT_MEMORY_BYTES, writeLayerFile, type TWriteLayerFileOptions } from "./write-layer-file";
export {
  bboxIntersects,
  openLayerFile,
  readLayerBatches,
  rowGroupsFor,
  type TLayerFile,
  type TLayerFileRowGroup,
  type TOpenLayerFileOptions,
  type TReadLayerBatchesOptions,
} from "./read-layer-file";
export { createRowGroupCache, type TRowGroupCache } from "./row-group-cache";
export type { TAsyncByteSink } from "./sink-writer";
export { BBOX_COLUMN, GEOMETRY_COLUMN, type TBbox, type TLayerFileColumn, type TLayerFileKind, type TLayerFileSummary } from "./types";
