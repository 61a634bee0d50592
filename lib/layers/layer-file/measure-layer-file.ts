/**
 * Measures the layer file writer and reader on synthetic points (not a test; run by hand):
 *
 *   node --import tsx lib/layers/layer-file/measure-layer-file.ts <count> [rowGroupRows] [memoryMiB]
 *
 * Writes `count` points (synthetic-points.ts, seed 1) to a file in the OS temp directory and
 * prints items/s, output MB/s, bytes per point and the process's peak RSS (`maxRSS`, which
 * includes making the points); then opens the file through a file-handle AsyncBuffer and
 * reads 1-degree boxes (dense Paris, New York, rural Kansas, mid-Pacific), printing row groups
 * read, bytes read as a share of the file, and time. The file is removed at the end.
 */
import { open, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AsyncBuffer } from "hyparquet";
import { openLayerFile, readLayerBatches } from "./read-layer-file";
import { syntheticPoints } from "./synthetic-points";
import type { TBbox } from "./types";
import { writeLayerFile } from "./write-layer-file";

const count = Number(process.argv[2] ?? 1_000_000);
const rowGroupRows = process.argv[3] ? Number(process.argv[3]) : undefined;
const memoryBytes = process.argv[4] ? Number(process.argv[4]) * 1024 * 1024 : undefined;
const target = path.join(os.tmpdir(), `layer-file-measure-${process.pid}.parquet`);

const out = await open(target, "w");
const started = performance.now();
const summary = await writeLayerFile(syntheticPoints(count, 1), {
  kind: "features",
  tmpDir: os.tmpdir(),
  rowGroupRows,
  memoryBytes,
  sink: async (chunk) => {
    await out.write(chunk);
  },
});
await out.close();
const seconds = (performance.now() - started) / 1000;
const mb = summary.sizeBytes / 1e6;
console.log(
  JSON.stringify({
    count,
    rowGroupRows: rowGroupRows ?? "default",
    seconds: +seconds.toFixed(2),
    itemsPerSecond: Math.round(count / seconds),
    outputMBps: +(mb / seconds).toFixed(2),
    fileMB: +mb.toFixed(1),
    bytesPerPoint: +(summary.sizeBytes / count).toFixed(1),
    rowGroups: summary.rowGroups,
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);

const handle = await open(target, "r");
const source: AsyncBuffer = {
  byteLength: summary.sizeBytes,
  async slice(start, end = summary.sizeBytes) {
    const buffer = Buffer.allocUnsafe(end - start);
    await handle.read(buffer, 0, end - start, start);
    return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
  },
};
const boxes: Record<string, TBbox> = {
  paris: [2, 48.5, 3, 49.5],
  newYork: [-74.5, 40.3, -73.5, 41.3],
  kansas: [-99, 38, -98, 39],
  pacific: [-150, -10, -149, -9],
};
for (const [name, box] of Object.entries(boxes)) {
  const t0 = performance.now();
  const file = await openLayerFile(source);
  const footer = file.bytesRead;
  let groups = 0;
  let items = 0;
  for await (const batch of readLayerBatches(file, box)) {
    groups++;
    items += batch.length;
  }
  console.log(
    JSON.stringify({
      box: name,
      ms: Math.round(performance.now() - t0),
      rowGroupsRead: groups,
      of: file.rowGroups.length,
      itemsRead: items,
      footerFetchedKB: Math.round(footer / 1024),
      footerKB: Math.round(file.source.metadata.metadata_length / 1024),
      bytesRead: file.bytesRead,
      shareOfFile: +((100 * file.bytesRead) / file.sizeBytes).toFixed(3) + "%",
    }),
  );
}
await handle.close();
await rm(target, { force: true });
