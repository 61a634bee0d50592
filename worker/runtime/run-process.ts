/**
 * A run process: one of the worker's run pool (worker/runtime/run-pool.ts: one piece of work at
 * a time, within its memory and time budget).
 *
 * Messages (worker/runtime/protocol.ts):
 * - `run`: opens the layer inputs as lazy sources over their files in the blob store
 *   (worker/runtime/layer-source.ts: the engine's planner decides which part of each layer is read),
 *   runs the flow (`runFlow`), then writes each result's lossless copy and the format the
 *   caller asked for into the blob store, all at once (lib/runs/result-blobs.ts; `allOrNothing`),
 *   and answers `done` with the counts and blob keys; `progress` after each step. A preview: see
 *   `TRunTask.headRows`.
 * - `format`: makes another format of one result of a completed run from its copy (a download of
 *   a format nobody asked for yet, job "result-format").
 * - `abort`: cancels the current work; it answers `failed` with an abort.
 *
 * Nothing of a run is kept after it but the row-group cache of the layers it read (bounded by
 * bytes); a run that failed on a resource limit leaves not even that.
 */
import { randomUUID } from "node:crypto";
import { blobStore } from "@/lib/blobs";
import { runFlow } from "@/lib/engine/run-flow";
import type { TDataset, TEngineResult, TLayerSource, TResolvedInputs } from "@/lib/engine/types";
import { sliceTable } from "@/lib/steps/dataset";
import { featureCount } from "@/lib/steps/point-columns";
import { callerDataToDataset, type TInputValue } from "@/lib/flows/run-request";
import { ResourceLimitError } from "@/lib/errors";
import { forgetLayers, layerSource } from "@/worker/runtime/layer-source";
import { readSpill } from "@/lib/runs/result-spill";
import { resultFileKey, writeResultCopy, writeResultFile } from "@/lib/runs/result-blobs";
import { measure } from "@/lib/runs/run-measures";
import type { TProcessInput, TResultRecord, TWrittenFile } from "@/lib/runs/run-task";
import { errorToFailure, type TFromProcess, type TToProcess } from "@/worker/runtime/protocol";

if (!process.send) throw new Error("run-process.ts runs only as a child process of the run pool (worker/runtime/run-pool.ts)");

let current: AbortController | null = null;

const send = (msg: TFromProcess) => process.send!(msg);

function resolveInputs(inputs: Record<string, TProcessInput>): TResolvedInputs {
  const out: Record<string, TDataset | TLayerSource | null> = {};
  for (const [name, input] of Object.entries(inputs)) {
    if (input === null) out[name] = null;
    else if ("layer" in input) out[name] = layerSource(input.layer);
    else out[name] = callerDataToDataset(input.value as TInputValue | null);
  }
  return out;
}

/** `result` with its first `n` rows or features only (a preview's files; a head from runFlow is one already). */
function headOf(result: TEngineResult, n: number): TEngineResult {
  if (result.kind === "layer") return { ...result, data: { kind: "features", features: result.data.features.slice(0, n) } };
  return { ...result, data: sliceTable(result.data, 0, n) };
}

/**
 * Runs `tasks` at once, each with a signal that aborts when `signal` does or another task fails;
 * settles when every task has, rejecting with the first failure. A run's files are written so:
 * one file's writes and fsync (the kernel's work) overlap the encoding of the others, and no file
 * is still being written when the run fails (its files are removed then, lib/runs/execute-run.ts).
 * Bench "data", the 1-degree `cities-in-area` row on the 10M layer: the run process's files
 * took 31 ms against 41-42 ms one after the other.
 */
async function allOrNothing<T>(signal: AbortSignal, tasks: ((signal: AbortSignal) => Promise<T>)[]): Promise<T[]> {
  const failed = new AbortController();
  const both = AbortSignal.any([signal, failed.signal]);
  let first: { err: unknown } | undefined;
  const settled = await Promise.allSettled(
    tasks.map((task) =>
      task(both).catch((err: unknown) => {
        first ??= { err };
        failed.abort(err);
        throw err;
      }),
    ),
  );
  if (first) throw first.err;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

async function run(msg: Extract<TToProcess, { type: "run" }>, signal: AbortSignal): Promise<{ results: TResultRecord[]; files: TWrittenFile[] }> {
  const engineStart = performance.now();
  const results = await runFlow(msg.flow, resolveInputs(msg.inputs), msg.params, {
    signal,
    maxItems: msg.maxRows,
    resultHead: msg.headRows,
    onProgress: (done, total) => send({ type: "progress", id: msg.id, done, total }),
  });
  const encodeStart = performance.now();
  const budget = { bytesLeft: msg.maxResultBytes, limit: msg.maxResultBytes };
  const prepared = results.map((full) => {
    // A preview's results read from files come as heads with their count already (runFlow's `resultHead`).
    const count = full.count ?? (full.kind === "layer" ? featureCount(full.data) : full.data.length);
    const result = msg.headRows === undefined ? full : headOf(full, msg.headRows);
    return { result, count, format: msg.files.find((f) => f.key === result.key)?.format };
  });
  const requested = prepared.filter((p) => p.format !== undefined);
  const written = await allOrNothing<TWrittenFile | string>(signal, [
    ...requested.map((p) => (s: AbortSignal) => writeResultFile(msg.runId, p.result, p.format!, budget, s)),
    ...prepared.map((p) => (s: AbortSignal) => writeResultCopy(msg.runId, p.result, s)),
  ]);
  const files = written.slice(0, requested.length) as TWrittenFile[];
  const records = prepared.map(({ result, count }, i): TResultRecord => ({
    key: result.key,
    kind: result.kind,
    featureCount: result.kind === "layer" ? count : null,
    rowCount: result.kind === "table" ? count : null,
    spillKey: written[requested.length + i] as string,
  }));
  measure("run.engine", engineStart, encodeStart);
  measure("run.files", encodeStart, performance.now());
  return { results: records, files };
}

async function format(msg: Extract<TToProcess, { type: "format" }>, signal: AbortSignal): Promise<TWrittenFile> {
  const result = await readSpill(msg.key, blobStore().stream(msg.spillKey));
  const budget = { bytesLeft: msg.maxResultBytes, limit: msg.maxResultBytes };
  // an object of its own: another worker may be making the same format (see result-blobs.ts)
  return writeResultFile(msg.runId, result, msg.format, budget, signal, `${resultFileKey(msg.runId, msg.key, msg.format)}.${randomUUID()}`);
}

async function handle(msg: TToProcess): Promise<void> {
  if (msg.type === "abort") return void current?.abort();
  const abort = new AbortController();
  current = abort;
  try {
    if (msg.type === "run") send({ type: "done", id: msg.id, ...(await run(msg, abort.signal)) });
    else send({ type: "done", id: msg.id, results: [], files: [await format(msg, abort.signal)] });
  } catch (err) {
    if (err instanceof ResourceLimitError || (err as { cause?: unknown }).cause instanceof ResourceLimitError) {
      forgetLayers();
    }
    send({ type: "failed", id: msg.id, failure: errorToFailure(err) });
  } finally {
    if (current === abort) current = null;
  }
}

process.on("message", (msg: TToProcess) => void handle(msg));
// The worker is gone (it died or stopped): nothing left to do for.
process.on("disconnect", () => process.exit(0));
