/**
 * Layer files: layers as GeoParquet 1.1 sorted along a Hilbert curve, tables as Parquet, written
 * streaming in bounded memory and read back by row groups that meet a box (see
 * write-layer-file.ts and read-layer-file.ts for the format and the rules).
 */
export { writeLayerFile } from "./write-layer-file";
export { openLayerFile, readLayerBatches, rowGroupsFor, type TLayerFile } from "./read-layer-file";
export { createRowGroupCache, type TRowGroupCache } from "./row-group-cache";
