/**
 * Throughput of a blob store, MB/s (10^6 bytes per second): a put of `sizeBytes` fed in
 * `chunkBytes` chunks (as an upload or a result writer feeds it), a full `stream` (a
 * download), and `getRange` reads of `rangeBytes` each (Parquet row groups). For bench rows and
 * for checking a machine against the download target (200 MB/s), not for tests: the numbers
 * depend on the disk, the page cache and the load.
 */
import { randomBytes } from "node:crypto";
import type { TBlobStore } from "@/lib/blobs/blob-store";

export interface TThroughput {
  sizeBytes: number;
  putMBps: number;
  streamMBps: number;
  getRangeMBps: number;
}

/** Puts, streams and range-reads one object under `key` (deleted afterwards). */
export async function measureBlobThroughput(
  store: TBlobStore,
  opts: { key?: string; sizeBytes?: number; chunkBytes?: number; rangeBytes?: number } = {},
): Promise<TThroughput> {
  const key = opts.key ?? `throughput/${Date.now()}.bin`;
  const sizeBytes = opts.sizeBytes ?? 128 * 1024 * 1024;
  const chunkBytes = opts.chunkBytes ?? 64 * 1024;
  const rangeBytes = opts.rangeBytes ?? 1024 * 1024;
  // One random block repeated: the cost measured is the store's, not the random generator's.
  const block = randomBytes(chunkBytes);
  async function* body(): AsyncGenerator<Uint8Array> {
    for (let left = sizeBytes; left > 0; left -= chunkBytes) yield left >= chunkBytes ? block : block.subarray(0, left);
  }
  const mbps = (bytes: number, ms: number) => Math.round(bytes / 1e6 / (ms / 1000));
  try {
    let t = performance.now();
    await store.put(key, body());
    const putMBps = mbps(sizeBytes, performance.now() - t);

    t = performance.now();
    let streamed = 0;
    for await (const chunk of store.stream(key)) streamed += chunk.byteLength;
    const streamMBps = mbps(streamed, performance.now() - t);

    t = performance.now();
    let ranged = 0;
    for (let at = 0; at < sizeBytes; at += rangeBytes) ranged += (await store.getRange(key, at, at + rangeBytes)).byteLength;
    const getRangeMBps = mbps(ranged, performance.now() - t);
    return { sizeBytes, putMBps, streamMBps, getRangeMBps };
  } finally {
    await store.delete(key);
  }
}
