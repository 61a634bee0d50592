/**
 * Where a layer's files live in the blob store: one new key per version (a replaced layer never
 * overwrites the file runs in flight read), under the layer's workspace (layer ids are unique
 * within a workspace only, so two workspaces' layers of one id never share a key, nor anything
 * cached by key: worker/runtime/layer-source.ts).
 */
export const layerFileKey = (workspaceId: string, layerId: string, version: string) => `layers/${workspaceId}/${layerId}/${version}.parquet`;
