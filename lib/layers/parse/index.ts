/** Streaming readers of layer uploads, one entry point (layer-items.ts); faults: problems.ts. */
export { emptyFile, formatBytes, MAX_LAYER_UPLOAD_BYTES, tooLarge, withinBudget, type TByteBudget } from "./limits";
export { layerItems, UPLOAD_FORMATS, type TUploadFormat, type TUploadSource } from "./layer-items";
export { storableFieldError, storableText } from "./problems";
