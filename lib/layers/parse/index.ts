/**
 * Streaming readers of layer uploads (GeoJSON FeatureCollection, GeoJSON text sequences,
 * CSV, GeoParquet): each yields items one at a time, features (`TFeature`) or, for a CSV
 * without position columns, rows (`TRow`), checked as they arrive, within `TParseLimits`.
 * Their faults are AppError `validation_failed` listing at most 20 field errors named by
 * JSON Pointer into the upload (`/file/features/12/geometry/coordinates`, `/file/rows/3/lon`).
 */
export { emptyFile, formatBytes, MAX_LAYER_UPLOAD_BYTES, tooLarge } from "./limits";
export { MAX_LISTED_PROBLEMS } from "./problems";
export { layerItems, UPLOAD_FORMATS, type TUploadFormat, type TUploadSource } from "./layer-items";
