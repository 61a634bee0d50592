/**
 * Layer inputs of a run as the engine reads them (`TLayerSource`, lib/steps/dataset.ts): the
 * layer's GeoParquet file in the blob store, opened once per process (its footer: row groups
 * and their bboxes) and read row group by row group, skipping the groups whose bbox misses the
 * box the engine's planner gave the input (lib/engine/plan-boxes.ts). Decoded row groups are kept
 * in this process's row-group cache (an LRU bounded by `LAYER_CACHE_MB`), so repeated runs on
 * the same part of a layer decode it once.
 *
 * A file key names one version of one workspace's layer (`layerFileKey`: the workspace, the
 * layer id and the version; layer ids are unique within a workspace only), so what is cached
 * under a key is never another workspace's layer of the same id and never goes stale; a run in
 * flight keeps reading the file it started with.
 */
import { blobAsyncBuffer, blobStore } from "@/lib/blobs";
import type { TBox, TLayerSource } from "@/lib/engine/types";
import { env } from "@/lib/env";
import { createRowGroupCache, openLayerFile, readLayerBatches, type TLayerFile, type TRowGroupCache } from "@/lib/layers/layer-file";
import type { TLayerRef } from "@/lib/runs/run-task";

/** Opened files (their footers: for 10M points 0.4 MB of heap and 1.5 MB of typed arrays, read-layer-file.ts), by file key; a handful per process. */
const opened = new Map<string, Promise<TLayerFile>>();
const MAX_OPENED = 16;
let cache: TRowGroupCache | undefined;

function rowGroupCache(): TRowGroupCache {
  cache ??= createRowGroupCache(env().LAYER_CACHE_MB * 1024 * 1024);
  return cache;
}

function open(fileKey: string): Promise<TLayerFile> {
  let file = opened.get(fileKey);
  if (file) opened.delete(fileKey); // re-inserted below: most recently used last
  file ??= blobAsyncBuffer(blobStore(), fileKey).then((buffer) => openLayerFile(buffer, { cacheKey: fileKey, cache: rowGroupCache() }));
  file.catch(() => opened.delete(fileKey));
  opened.set(fileKey, file);
  while (opened.size > MAX_OPENED) opened.delete(opened.keys().next().value!);
  return file;
}

/** The engine's view of one layer input. */
export function layerSource(ref: TLayerRef): TLayerSource {
  const [w, s, e, n] = ref.bbox;
  return {
    kind: "layer-source",
    of: ref.kind === "features" ? "features" : "rows",
    itemCount: ref.itemCount,
    bbox: ref.bbox.length === 4 ? [w!, s!, e!, n!] : null,
    columns: ref.kind === "table" ? ref.columns : undefined,
    async *batches(box: TBox | null, signal?: AbortSignal) {
      const file = await open(ref.fileKey);
      yield* readLayerBatches(file, box, { signal });
    },
  };
}

/** Forgets the opened files and the decoded row groups (after a run that failed on resources: nothing of it is kept). */
export function forgetLayers(): void {
  opened.clear();
  cache?.clear();
}
