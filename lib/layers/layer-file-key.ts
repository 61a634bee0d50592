/** Where a layer's files live in the blob store: one new key per version (a replaced layer never overwrites the file runs in flight read). */
export const layerFileKey = (workspaceId: string, layerId: string, version: string) => `layers/${workspaceId}/${layerId}/${version}.parquet`;
