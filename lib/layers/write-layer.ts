/**
 * Writes a layer's file from items already in this process (the demo seed, the conversion of
 * layers stored before the blob store) and returns the layer row's file fields. Uploads go
 * through the import job instead (lib/layers/run-layer-import.ts), which parses in a process of
 * its own; both write the same file (lib/layers/layer-file).
 */
import "server-only";
import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { blobStore } from "@/lib/blobs";
import { privateTmpDir } from "@/lib/env";
import { byteChannel } from "@/lib/blobs/byte-channel";
import type { TFeature, TRow } from "@/lib/engine/types";
import { writeLayerFile } from "@/lib/layers/layer-file";
import { layerFileKey } from "@/lib/layers/layer-file-key";

/** The layer row's file fields (`layer` table): what the file holds and where it is. */
export interface TLayerFileFields {
  kind: "features" | "table";
  itemCount: number;
  /** `[west, south, east, north]`, empty for a table or a layer without coordinates. */
  bbox: number[];
  geometryTypes: string[];
  columns: { name: string; type: string }[];
  fileKey: string;
  fileSizeBytes: bigint;
  fileSha256: string;
}

/**
 * Writes `items` as a layer file (lib/layers/layer-file) straight into the blob store under
 * `fileKey`, streaming (no whole file in memory); sort runs go to `tmpDir`. On failure nothing is
 * left under `fileKey`. The import process and `writeLayerItems` both write layers through it.
 */
export async function storeLayerFile(
  items: AsyncIterable<TFeature | TRow> | Iterable<TFeature | TRow>,
  opts: { kind: "features" | "table"; fileKey: string; tmpDir: string },
): Promise<TLayerFileFields> {
  const store = blobStore();
  const channel = byteChannel();
  const stored = store.put(opts.fileKey, channel.chunks(), { contentType: "application/vnd.apache.parquet" });
  stored.catch((err: unknown) => channel.abandon(err));
  try {
    const summary = await writeLayerFile(items, {
      kind: opts.kind,
      tmpDir: opts.tmpDir,
      sink: async (chunk) => {
        channel.push(chunk);
        await channel.pace();
      },
    });
    channel.close();
    const info = await stored;
    return {
      kind: summary.kind,
      itemCount: summary.itemCount,
      bbox: summary.bbox ?? [],
      geometryTypes: summary.geometryTypes,
      columns: summary.columns,
      fileKey: opts.fileKey,
      fileSizeBytes: BigInt(info.sizeBytes),
      fileSha256: info.sha256,
    };
  } catch (err) {
    channel.fail(err);
    await stored.catch(() => {});
    await store.delete(opts.fileKey).catch(() => {});
    throw err;
  }
}

/** Writes a layer's file from items in this process under a new key (see module doc). */
export async function writeLayerItems(
  workspaceId: string,
  layerId: string,
  data: { kind: "features" | "table"; items: readonly (TFeature | TRow)[] },
): Promise<TLayerFileFields> {
  const id = randomUUID();
  const tmpDir = privateTmpDir("layers", id);
  try {
    return await storeLayerFile(data.items, { kind: data.kind, fileKey: layerFileKey(workspaceId, layerId, id), tmpDir });
  } finally {
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }
}
