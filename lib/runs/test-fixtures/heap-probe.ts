/**
 * Probe for lib/runs/process-memory.test.ts, run as its own process with
 * `--expose-gc --max-semi-space-size=32` (the flags of a run process, which V8 takes only at
 * start). Prints JSON: the young generation's size (MB) after the same churn with the heap as
 * V8 likes it, kept tight, and free again; and the array-buffer memory (MB) left after dropping
 * eight 1 MiB chunks, before and after `collectRelayedChunks`.
 */
import v8 from "node:v8";
import { collectRelayedChunks, keepHeapTight } from "@/lib/runs/process-memory";

const gc = (globalThis as { gc?: (o?: object) => void }).gc!;
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
const newSpace = () => mb(v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")!.space_size);

/** Short-lived objects with survivors across scavenges, as an encoder makes them. */
function churn(): number {
  let keep: object[] = [];
  for (let i = 0; i < 3_000_000; i++) {
    keep.push({ a: i, b: `x${i}` });
    if (keep.length > 200_000) keep = [];
  }
  return keep.length;
}

const trim = () => gc({ type: "major", execution: "sync", flavor: "last-resort" });
churn();
const grown = newSpace();
trim();
keepHeapTight(true);
churn();
const tight = newSpace();
keepHeapTight(false);
churn();
const free = newSpace();

trim();
const relay: { chunks: Uint8Array[] } = { chunks: Array.from({ length: 8 }, () => new Uint8Array(1 << 20).fill(1)) };
const held = mb(process.memoryUsage().arrayBuffers);
relay.chunks = []; // dropped, as the worker drops a stored chunk
const dropped = mb(process.memoryUsage().arrayBuffers);
collectRelayedChunks();
const collected = mb(process.memoryUsage().arrayBuffers);

process.stdout.write(JSON.stringify({ grown, tight, free, held, dropped, collected }));
