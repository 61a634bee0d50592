/**
 * Memory settings of the worker's processes: those that must be in place before a process
 * starts (below), and two run-time controls, `collectRelayedChunks` (the worker) and
 * `keepHeapTight` (a run process writing the formats nobody waits for).
 *
 * `MALLOC_MMAP_THRESHOLD_` (glibc): allocations from 128 KiB up are mapped on their own and
 * returned to the OS when freed. By default glibc raises that threshold each time such a block
 * is freed (up to 32 MiB), after which the ~1 MiB result-file chunks, IPC messages and
 * compression buffers come from the main heap, which it rarely gives back: measured after six
 * nearby-cities runs (5,000 places, 30 km), the worker process held 72 MB in that heap and went
 * from 173 to 217-243 MB resident; with the fixed threshold it went to 194 MB, and its run
 * processes rested at 134-139 MB instead of 153-159 MB. Other C libraries ignore the variable.
 * A value already set in the environment wins.
 *
 * `WORKER_NODE_FLAGS`: the worker's own young generation is small (4 MB semi-spaces): it only
 * relays chunks and talks to Postgres, so its short-lived garbage is small and frequent
 * scavenges cost little; its peak went from 243 to 225 MB over the same runs. `--expose-gc`
 * lets it free relayed chunks at once (`collectRelayedChunks`).
 */
import v8 from "node:v8";

export const MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: "131072" };

/** `env` with `MALLOC_ENV` added where `env` does not set those variables itself. */
export function withMallocEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...MALLOC_ENV, ...env };
}

/** Node flags of the worker process (see the module doc and `collectRelayedChunks`). */
export const WORKER_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=4", "--expose-gc"];

/**
 * Frees the buffers of result chunks the worker has just stored: each ~1 MiB chunk arrives
 * from a run process as a fresh buffer (IPC deserialization) and is copied again into the
 * database driver's message, and V8 frees such backing stores only when it collects their
 * (small) JS objects, which it does late: it lets external memory grow by up to 64 MB before it
 * collects for it. A scavenge (`gc({type: "minor"})`, with `--expose-gc`, ~1 ms on the worker's
 * 4 MB semi-spaces) after each stored chunk frees them at once. A no-op without the flag.
 */
export function collectRelayedChunks(): void {
  exposedGc()?.({ type: "minor" });
}

/** Node's `gc(options)` where the process was started with `--expose-gc`, else undefined. */
export function exposedGc(): ((options?: object) => void) | undefined {
  return (globalThis as { gc?: (options?: object) => void }).gc;
}

/** V8's defaults of the two flags `keepHeapTight` sets (`node --v8-options`; 0: V8's own heuristic). */
const SEMI_SPACE_GROWTH_DEFAULT = 2;
const HEAP_GROWING_PERCENT_DEFAULT = 0;
/** Old-generation headroom while tight: the next full collection comes at 110% of what survived the last. */
const HEAP_GROWING_PERCENT_TIGHT = 10;
let heapTight = false;

/**
 * Keeps the heap close to its live size (`on`), or lets it grow as V8 likes (a run). A run wants
 * room: large semi-spaces (its short-lived garbage dies young, see run-pool.ts `SEMI_SPACE_MB`)
 * and an old generation that grows ahead of it. The formats written after the run is final do
 * not: their encoders regrew the trimmed young generation to its full 2 × 32 MB and piled
 * garbage into the old generation while the next run worked in the other process, and that
 * overlap was the worker's memory peak. Tight, the young generation stays at its trimmed size
 * (`--semi-space-growth-factor=1`) and a full collection comes once the old generation grew 10%
 * (`--heap-growing-percent`). V8 reads both each time it sizes a space, so setting them at run
 * time (`v8.setFlagsFromString`) takes effect at the next collection. Measured on
 * nearby-cities runs (5,000 places, 30 km) in a pool process: the background Parquet and
 * GeoParquet peaked at 183-208 MB anonymous memory instead of 216-245 MB, taking 1.3 s instead
 * of 1.1 s unthrottled; in `npm run bench -- engine` the worker's peak fell by ~20 MB.
 */
export function keepHeapTight(on: boolean): void {
  if (on === heapTight) return;
  v8.setFlagsFromString(`--semi-space-growth-factor=${on ? 1 : SEMI_SPACE_GROWTH_DEFAULT}`);
  v8.setFlagsFromString(`--heap-growing-percent=${on ? HEAP_GROWING_PERCENT_TIGHT : HEAP_GROWING_PERCENT_DEFAULT}`);
  heapTight = on;
}
