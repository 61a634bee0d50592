/**
 * A run process: a child process of the worker, one of its run pool (lib/runs/run-pool.ts).
 * It executes one run at a time, engine and result encoding, inside the memory budget the
 * pool gave it (`--max-old-space-size`): a run that outgrows it ends this process only, never
 * the worker process or another run.
 *
 * Messages (lib/runs/run-process-protocol.ts): `run` resolves the inputs (layers from this
 * process's own cache, filled from the content the pool sends with the first run that needs
 * a layer version; caller data as in the request), runs the flow (`runFlow`), encodes the
 * requested files and answers `progress`..., `chunk`... (each ~1 MiB piece of a file as soon as
 * the encoder produced it, so the worker stores it while the rest is written and no process
 * holds a whole file) and `file` (one per complete file: size, SHA-256), then `done` or `failed`. `encode` writes more files of the same results (the
 * formats the caller did not ask for, after the run is final); `release` drops them and, when
 * the run made the process grow, gives the memory back to the OS (see `trimMemory`).
 * `abort` cancels the current work. `preload` fills the layer cache ahead of the runs (the pool
 * sends an idle process the layers other runs used lately, so a second run at once finds them).
 *
 * Layers are cached by (layer id, data version): the 135,233-city layer is decoded once per
 * process, and the engine's spatial indexes (cached per features array) survive across runs.
 */
import { createHash } from "node:crypto";
import { appendFileSync } from "node:fs";
import v8 from "node:v8";
import { runFlow } from "@/lib/engine/run-flow";
import type { TDataset, TEngineResult, TFeatureSet, TResolvedInputs, TTable } from "@/lib/engine/types";
import { callerDataToDataset, type TInputValue } from "@/lib/flows/run-request";
import { encodeResult } from "@/lib/formats/encode-result";
import { decodeLayerData } from "@/lib/layers/layer-data";
import { InputDataError, ResourceLimitError } from "@/lib/errors";
import { exposedGc, keepHeapTight } from "@/lib/runs/process-memory";
import { errorToFailure, MAX_CHUNKS_IN_FLIGHT, type TFileRequest, type TFromProcess, type TToProcess } from "@/lib/runs/run-process-protocol";

if (!process.send) throw new Error("run-process.ts runs only as a child process of the run pool (lib/runs/run-pool.ts)");

const layers = new Map<string, { version: number; data: TFeatureSet | TTable }>();
let current: AbortController | null = null;
/** Bytes the run's result files may still take, of `limit`. */
interface TByteBudget {
  bytesLeft: number;
  limit: number;
}
let last: { results: TEngineResult[]; budget: TByteBudget } | null = null;

function send(msg: TFromProcess): void {
  process.send!(msg);
}

/** Chunks of request `inFlightOf` sent and not yet acknowledged (stored) by the worker, and encoders waiting for room. */
let inFlight = 0;
let inFlightOf = -1;
let waitingForRoom: (() => void)[] = [];

/** Wakes waiting encoders (room again, or the work was aborted). */
function wakeEncoders(): void {
  const w = waitingForRoom;
  waitingForRoom = [];
  for (const resolve of w) resolve();
}

/** `TPace` of the encoders: waits while `MAX_CHUNKS_IN_FLIGHT` chunks are not stored yet. */
function roomForChunks(signal: AbortSignal): Promise<void> | void {
  if (inFlight < MAX_CHUNKS_IN_FLIGHT || signal.aborted) return;
  return new Promise((resolve) => waitingForRoom.push(resolve));
}

/**
 * Background encoding (`encode` requests) while a run that a caller waits for is working
 * somewhere in this worker (`throttle` messages from the pool): the encoder stops at its next
 * slice and waits until no run works (checking every `THROTTLE_SLEEP_MS`), so the run has the
 * cores to itself. Paused `PAUSE_LIMIT_MS` in all (runs beside it one after another, or a long
 * one), it goes on at about a fifth of a core instead (`THROTTLE_WORK_MS` of work, then a
 * sleep), so it still ends well within the time limit its request runs under.
 *
 * Why pause rather than only throttle: measured in `npm run bench -- engine` on nearby-cities
 * runs (5,000 places, 30 km) back to back, each beside the previous run's Parquet, medians of 5
 * from started to finished on one machine: throttled to a fifth of a core 1,304-1,518 ms
 * (three bench runs), paused 1,082 ms, with the caller's POST -> 200 alike (1,944-2,636 ms
 * throttled, 2,279 ms paused: the formats written while no run works are done as soon, and a run
 * that finds no free process waits for them either way). Earlier, on a faster machine: 1,034 ms
 * beside a full-speed Parquet, 824 ms with no background formats at all. A lower nice value
 * alone did not do it on two cores: the run shares them with its own GC threads, the worker
 * storing its chunks and Postgres. A background encoding that nothing waits beside runs at full
 * speed (see RunPool `throttling`).
 */
const THROTTLE_WORK_MS = 5;
const THROTTLE_SLEEP_MS = 20;
const PAUSE_LIMIT_MS = 5_000;
let throttled = false;
let workingSince = 0;
/** Time the current background request has been paused, ms (see `PAUSE_LIMIT_MS`). */
let pausedMs = 0;

/** `TPace` of background encoders: backpressure, then a pause while a run works (see above). */
async function giveWay(signal: AbortSignal): Promise<void> {
  await roomForChunks(signal);
  if (!throttled || signal.aborted) return void (workingSince = performance.now());
  if (pausedMs >= PAUSE_LIMIT_MS && performance.now() - workingSince < THROTTLE_WORK_MS) return;
  // A run is working beside this encoding: its young generation must not grow back to full size
  // meanwhile (a trim at most every TRIM_ABOVE_BYTES of growth, during the pause anyway).
  trimMemory();
  do {
    const start = performance.now();
    await new Promise((resolve) => setTimeout(resolve, THROTTLE_SLEEP_MS));
    pausedMs += performance.now() - start;
  } while (throttled && !signal.aborted && pausedMs < PAUSE_LIMIT_MS);
  workingSince = performance.now();
}

/**
 * Growth of V8's committed heap (bytes) since the last trim above which `release` trims.
 * Small runs stay below it, so they pay nothing; a nearby-cities run of 5,000 places at 30 km
 * leaves ~100 MB committed.
 */
const TRIM_ABOVE_BYTES = 32 * 1024 * 1024;

/** V8's committed heap after the last trim (or at start). */
let trimmedAt = v8.getHeapStatistics().total_heap_size;

/**
 * Gives memory the last run no longer needs back to the OS: V8 keeps the pages of a heap that
 * grew (and its young generation at full size) after the garbage in them is collected, so an
 * idle process that ran one large run stayed at ~320 MB resident for good. A "last resort"
 * full collection (`gc({flavor: "last-resort"})`, with `--expose-gc`) also shrinks the young
 * generation and releases free pages: measured after two nearby-cities runs (5,000 places,
 * 30 km), 300 -> 173 MB resident, in 60-130 ms of this process's (idle) time. Skipped when the
 * heap grew by less than `TRIM_ABOVE_BYTES` (unless `force`), or when the process was started
 * without the flag.
 */
function trimMemory(force = false): void {
  const gc = exposedGc();
  if (!gc || (!force && v8.getHeapStatistics().total_heap_size - trimmedAt < TRIM_ABOVE_BYTES)) return;
  try {
    gc({ type: "major", execution: "sync", flavor: "last-resort" });
  } catch {
    // a Node whose gc() refuses these options: the memory stays with V8, the process goes on
  }
  trimmedAt = v8.getHeapStatistics().total_heap_size;
}

function resolveInputs(inputs: Record<string, { layer: { id: string; version: number } } | { value: unknown } | null>): TResolvedInputs {
  const out: Record<string, TDataset | null> = {};
  for (const [name, input] of Object.entries(inputs)) {
    if (input === null) out[name] = null;
    else if ("layer" in input) {
      const hit = layers.get(input.layer.id);
      if (!hit || hit.version !== input.layer.version) throw new InputDataError(`Layer "${input.layer.id}" has no data.`, name);
      out[name] = hit.data;
    } else out[name] = callerDataToDataset(input.value as TInputValue | null);
  }
  return out;
}

/**
 * Encodes `files` of `results`, streaming each one's chunks as they are written, and keeps the
 * run's result bytes within its limit (checked per chunk: an oversized file stops early).
 */
async function encodeFiles(
  id: number,
  results: TEngineResult[],
  files: TFileRequest[],
  budget: TByteBudget,
  signal: AbortSignal,
  background = false,
): Promise<void> {
  for (const f of files) {
    const result = results.find((r) => r.key === f.key);
    if (!result) continue;
    const hash = createHash("sha256");
    let seq = 0;
    let sizeBytes = 0;
    await encodeResult(result, f.format, {
      signal,
      pace: background ? () => giveWay(signal) : () => roomForChunks(signal),
      sink: (bytes) => {
        budget.bytesLeft -= bytes.byteLength;
        if (budget.bytesLeft < 0) {
          throw new ResourceLimitError(
            `The run's result files exceed ${formatMb(budget.limit)}; narrow the request (fewer rows, a smaller radius or area, a higher threshold).`,
            `result size ${formatMb(budget.limit)}`,
          );
        }
        hash.update(bytes);
        sizeBytes += bytes.byteLength;
        inFlight++;
        send({ type: "chunk", id, key: f.key, format: f.format, seq: seq++, bytes });
      },
    });
    send({ type: "file", id, key: f.key, format: f.format, sizeBytes, sha256: hash.digest("hex"), chunks: seq });
  }
}

/**
 * With `WORKER_RUN_TIMINGS` set (benchmarks), appends `{engineMs, encodeMs}` of each run to
 * `<that file>.process`, beside the worker's phase timings (lib/runs/execute-run.ts).
 */
function recordTimings(engineStart: number, encodeStart: number): void {
  const file = process.env.WORKER_RUN_TIMINGS;
  if (!file) return;
  const now = performance.now();
  appendFileSync(`${file}.process`, `${JSON.stringify({ engineMs: Math.round(encodeStart - engineStart), encodeMs: Math.round(now - encodeStart) })}\n`);
}

function formatMb(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

async function handle(msg: TToProcess): Promise<void> {
  if (msg.type === "abort") {
    current?.abort();
    return wakeEncoders();
  }
  if (msg.type === "throttle") {
    throttled = msg.on;
    return;
  }
  if (msg.type === "ack") {
    if (msg.id !== inFlightOf) return; // of a request that has ended
    inFlight = Math.max(0, inFlight - 1);
    if (inFlight < MAX_CHUNKS_IN_FLIGHT) wakeEncoders();
    return;
  }
  if (msg.type === "release") {
    last = null;
    return trimMemory();
  }
  if (msg.type === "preload") {
    keepHeapTight(false); // decoding a layer builds it up: a tight old generation would collect at every 10%
    for (const l of msg.layers) if (layers.get(l.id)?.version !== l.version) layers.set(l.id, { version: l.version, data: decodeLayerData(l.kind, l.content) });
    return trimMemory(); // decoding leaves the inflated text's garbage behind
  }
  const abort = new AbortController();
  current = abort;
  inFlight = 0;
  inFlightOf = msg.id;
  try {
    if (msg.type === "run") {
      last = null;
      keepHeapTight(false);
      for (const l of msg.layers) layers.set(l.id, { version: l.version, data: decodeLayerData(l.kind, l.content) });
      const inputs = resolveInputs(msg.inputs);
      const engineStart = performance.now();
      const results = await runFlow(msg.flow, inputs, msg.params, {
        signal: abort.signal,
        maxItems: msg.maxRows,
        onProgress: (done, total) => send({ type: "progress", id: msg.id, done, total }),
      });
      const budget = { bytesLeft: msg.maxResultBytes, limit: msg.maxResultBytes };
      const encodeStart = performance.now();
      await encodeFiles(msg.id, results, msg.files, budget, abort.signal);
      recordTimings(engineStart, encodeStart);
      last = { results, budget };
      send({
        type: "done",
        id: msg.id,
        results: results.map((r) => ({
          key: r.key,
          kind: r.kind,
          featureCount: r.kind === "layer" ? r.data.features.length : null,
          rowCount: r.kind === "table" ? r.data.rows.length : null,
        })),
      });
    } else {
      if (!last) throw new Error("encode: no results of a previous run in this process");
      // The run's garbage and its grown young generation go back to the OS before the formats
      // nobody waits for are written: this process holds them while the next run works in the
      // other one (measured on nearby-cities runs back to back: ~240 -> ~160 MB resident).
      trimMemory();
      keepHeapTight(true);
      throttled = msg.throttle === true;
      workingSince = performance.now();
      pausedMs = 0;
      await encodeFiles(msg.id, last.results, msg.files, last.budget, abort.signal, true);
      if (msg.release) {
        // The last work on these results: drop them and trim now, still at the request's
        // priority. Always: the heap need not have grown since the trim before these formats
        // (it is kept tight meanwhile, see keepHeapTight), but the dropped results
        // (the pairs of nearby-cities' 242,168 matches, a few MB as typed arrays) and the encoders'
        // garbage are only given back by a trim.
        last = null;
        trimMemory(true);
      }
      send({ type: "done", id: msg.id, results: [] });
    }
  } catch (err) {
    send({ type: "failed", id: msg.id, failure: errorToFailure(err) });
  } finally {
    if (current === abort) current = null;
  }
}

process.on("message", (msg: TToProcess) => void handle(msg));
// The worker is gone (it died or stopped): nothing left to do for.
process.on("disconnect", () => process.exit(0));
