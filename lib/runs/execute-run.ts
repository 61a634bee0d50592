/**
 * Executes one run (worker side), through the lifecycle of lib/runs/run-state.ts:
 * `claimRun` (queued -> running), progress while the engine works, then `finalizeRun` to
 * `completed` (with its result files, in the same transaction) or `failed`.
 *
 * The engine and the encoders run in a child process of the worker's run pool
 * (lib/runs/run-pool.ts), within the run's budgets (`RUN_MEMORY_MB`, `RUN_TIME_LIMIT_SECONDS`,
 * `RUN_MAX_RESULT_MB`, `RUN_MAX_ROWS`): a run over a budget fails at once with `resources_exhausted` naming
 * the limit, is not retried, and the worker and its other runs go on.
 *
 * Files: the run process streams each file in chunks, which are stored as they arrive, while
 * it goes on encoding (lib/runs/result-file-store.ts). The format the caller asked for (or the
 * kind's default) of every result becomes visible with the run's final state: its row is
 * written in the same transaction. The other format of each result is written by the same
 * process right after the run is final (downloads of it wait for it briefly, see
 * lib/runs/get-result-file.ts), so the caller's run is not held up by a file it may never fetch.
 *
 * Cancellation is a `finalizeRun` by the API (lib/runs/cancel-run.ts); the worker polls the
 * state every 250 ms while the run works and aborts the run process's work, and a finish that
 * loses the race to a cancel is rolled back.
 *
 * Failures are classified by error class (lib/runs/classify-failure.ts): the caller's data,
 * a failing step, an exceeded limit and a bug each fail the run at once with their own
 * code; only an unreachable database is thrown back to pg-boss to retry.
 */
import "server-only";
import { appendFileSync } from "node:fs";
import { db, type TTx } from "@/lib/db";
import { env } from "@/lib/env";
import { InputDataError } from "@/lib/errors";
import { ZFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import { isAbortError } from "@/lib/engine/errors";
import { FORMATS_BY_KIND, FORMAT_INFO, DEFAULT_FORMAT, type TResultFormat } from "@/lib/formats/types";
import { claimRun, finalizeRun, recordProgress, type TRunError } from "@/lib/runs/run-state";
import { classifyRunFailure } from "@/lib/runs/classify-failure";
import { RunPool, type RunProcess, type TEncodedFile, type TRunTask } from "@/lib/runs/run-pool";
import { ResultFileUploads, deleteOrphanChunks } from "@/lib/runs/result-file-store";
import type { TFileRequest, TProcessInput } from "@/lib/runs/run-process-protocol";
import { collectRelayedChunks } from "@/lib/runs/process-memory";
import type { TRunJob } from "@/lib/jobs/schemas";

const CANCEL_POLL_MS = 250;

class RunCancelled extends Error {}

let pool: RunPool | undefined;

/** The worker's run pool: one process per run slot (`WORKER_CONCURRENCY`), limits from the environment. */
export function runPool(): RunPool {
  const e = env();
  pool ??= new RunPool({ size: e.WORKER_CONCURRENCY, memoryMb: e.RUN_MEMORY_MB, timeLimitMs: e.RUN_TIME_LIMIT_SECONDS * 1000 });
  return pool;
}

/** The inputs as the run process takes them, and the layers they name (with their current data version). */
async function describeInputs(flow: TFlowVersion, values: Record<string, unknown>): Promise<Pick<TRunTask, "inputs" | "layers">> {
  const inputs: Record<string, TProcessInput> = {};
  const layers: TRunTask["layers"] = [];
  for (const input of flow.inputs) {
    const v = values[input.name] ?? null;
    if (v !== null && typeof v === "object" && "layer_id" in v) {
      const id = String(v.layer_id);
      const layer = await db.layer.findUnique({ where: { id }, select: { kind: true, dataVersion: true } });
      if (!layer) throw new InputDataError(`Layer "${id}" does not exist (any more).`, input.name);
      inputs[input.name] = { layer: { id, version: layer.dataVersion } };
      layers.push({ id, version: layer.dataVersion, kind: layer.kind });
    } else inputs[input.name] = v === null ? null : { value: v };
  }
  return { inputs, layers };
}

async function loadLayerContent(id: string): Promise<Uint8Array> {
  const row = await db.layerData.findUnique({ where: { layerId: id }, select: { content: true } });
  if (!row) throw new InputDataError(`Layer "${id}" has no data.`);
  return row.content;
}

function fileRow(runId: string, f: TEncodedFile) {
  return {
    runId,
    key: f.key,
    format: f.format,
    mediaType: FORMAT_INFO[f.format].mediaType,
    sizeBytes: f.sizeBytes,
    sha256: f.sha256,
  };
}

/** Job handler of "run-execute". */
export async function executeRunJob(data: TRunJob, ctx: { signal: AbortSignal }): Promise<void> {
  const timings = phaseTimer(data.runId);
  const run = await claimRun(data.runId);
  if (!run) return; // cancelled before it started, or already final
  const version = await db.flowVersion.findUniqueOrThrow({ where: { id: run.flowVersionId } });
  const flow = ZFlowVersion.parse(version.definition);
  // Progress is visible from the start: 0 of N steps.
  await recordProgress(run.id, 0, flow.steps.length);

  const abort = new AbortController();
  const onJobAbort = () => abort.abort();
  ctx.signal.addEventListener("abort", onJobAbort);
  const poll = setInterval(() => {
    db.run
      .findUnique({ where: { id: run.id }, select: { state: true } })
      .then((r) => {
        if (r?.state !== "running") abort.abort();
      })
      .catch(() => {});
  }, CANCEL_POLL_MS);
  let lastProgress = Promise.resolve();

  const chosen = (key: string, kind: "layer" | "table"): TResultFormat => {
    const f = run.formats[key];
    return f && (FORMATS_BY_KIND[kind] as readonly string[]).includes(f) ? (f as TResultFormat) : DEFAULT_FORMAT[kind];
  };
  const requested: TFileRequest[] = flow.results.map((r) => ({ key: r.key, format: chosen(r.key, r.kind) }));
  const others: TFileRequest[] = flow.results.flatMap((r) =>
    FORMATS_BY_KIND[r.kind].filter((f) => f !== chosen(r.key, r.kind)).map((format) => ({ key: r.key, format })),
  );

  let proc: RunProcess | undefined;
  let completed = false;
  const uploads = new ResultFileUploads(run.id);
  try {
    const described = await describeInputs(flow, run.request?.inputs ?? {});
    timings.mark("claim+describe");
    proc = await runPool().acquire();
    timings.mark("pool slot");
    const files: TEncodedFile[] = [];
    const results = await proc.run({
      flow,
      ...described,
      params: run.request?.parameters ?? {},
      loadLayer: loadLayerContent,
      files: requested,
      maxResultBytes: env().RUN_MAX_RESULT_MB * 1024 * 1024,
      maxRows: env().RUN_MAX_ROWS,
      signal: abort.signal,
      onProgress: (done, total) => {
        lastProgress = lastProgress.then(() => recordProgress(run.id, done, total));
      },
      onChunk: (c) => uploads.chunk(c).then(collectRelayedChunks),
      onFile: (f) => files.push(f),
    });
    timings.mark("run process (layers, engine, requested files)");
    await uploads.settled();
    timings.mark("last chunks stored");
    await lastProgress.catch(() => {});
    if (abort.signal.aborted) throw new RunCancelled();
    completed = await finish(run.id, "completed", null, async (tx) => {
      await tx.resultFile.createMany({ data: files.map((f) => fileRow(run.id, f)) });
      await tx.runResult.createMany({
        data: results.map((r) => ({
          runId: run.id,
          key: r.key,
          kind: r.kind,
          format: chosen(r.key, r.kind),
          featureCount: r.featureCount,
          rowCount: r.rowCount,
        })),
      });
    });
  } catch (err) {
    // A cancel made the run final already: only its chunks are left to drop (below).
    if (!(err instanceof RunCancelled || (isAbortError(err) && !ctx.signal.aborted))) {
      if (ctx.signal.aborted) throw err; // the job expired or the worker stops: let pg-boss retry
      const decision = classifyRunFailure(err);
      if (decision.kind === "retry") throw err;
      if (decision.bug) console.error(`[worker] run ${run.id} failed with an internal error:`, err);
      await finish(run.id, "failed", decision.error);
    }
  } finally {
    clearInterval(poll);
    ctx.signal.removeEventListener("abort", onJobAbort);
    if (!completed) proc?.release();
  }

  if (!completed) {
    // Failed, cancelled, or a cancel won the race with the final transaction: chunks it stored go.
    await dropChunks(run.id, uploads);
    return;
  }
  timings.mark("finalize");
  if (proc) await writeOtherFormats(run.id, proc, others, ctx.signal);
  timings.mark("other formats");
  timings.done();
}

/**
 * Where a run's time went, one JSON line per run appended to the file `WORKER_RUN_TIMINGS`
 * names (set by the benchmarks; unset, nothing is measured or written).
 */
function phaseTimer(runId: string): { mark: (phase: string) => void; done: () => void } {
  const file = process.env.WORKER_RUN_TIMINGS;
  if (!file) return { mark: () => {}, done: () => {} };
  const phases: Record<string, number> = {};
  let t = performance.now();
  return {
    mark: (phase) => {
      const now = performance.now();
      phases[phase] = Math.round(now - t);
      t = now;
    },
    done: () => appendFileSync(file, `${JSON.stringify({ runId, rssMb: Math.round(process.memoryUsage().rss / 1048576), ...phases })}\n`),
  };
}

/**
 * After the run is final (and its waiters woken): the formats nobody asked for yet, each stored
 * as soon as it is written. A failure here only leaves that format missing; the run stays completed.
 */
async function writeOtherFormats(runId: string, proc: RunProcess, files: TFileRequest[], signal: AbortSignal): Promise<void> {
  const uploads = new ResultFileUploads(runId);
  let failed = false;
  try {
    await proc.encode(files, {
      signal,
      background: true,
      onChunk: (c) => uploads.chunk(c).then(collectRelayedChunks),
      // The row after the file's last chunk: the file is visible once it is whole.
      onFile: (f) => uploads.then(() => db.resultFile.create({ data: fileRow(runId, f) })),
    });
  } catch (err) {
    failed = true;
    console.error(`[worker] run ${runId}: writing the other result formats failed:`, err);
  } finally {
    proc.release();
  }
  try {
    await uploads.settled();
  } catch (err) {
    failed = true;
    console.error(`[worker] run ${runId}: storing a result file failed:`, (err as Error).message);
  }
  if (failed) await dropChunks(runId, uploads);
}

/** After a run that did not complete: its chunks still in flight are stored, then every chunk without a file is deleted. */
async function dropChunks(runId: string, uploads: ResultFileUploads): Promise<void> {
  await uploads.settled().catch(() => {});
  await deleteOrphanChunks(runId).catch((err: Error) => console.error(`[worker] run ${runId}: deleting its result chunks failed:`, err.message));
}

/**
 * Finishes a claimed run: `extra` (the result files) and `finalizeRun` in one transaction.
 * Lost race to a cancel (the run is final already): everything is rolled back and false returned.
 */
async function finish(runId: string, state: "completed" | "failed", error: TRunError | null, extra?: (tx: TTx) => Promise<void>): Promise<boolean> {
  return db
    .$transaction(
      async (tx) => {
        if (extra) await extra(tx);
        if (!(await finalizeRun(tx, { runId, to: state, error }))) throw new RunCancelled();
        return true;
      },
      { timeout: 60_000, maxWait: 10_000 },
    )
    .catch((err) => {
      if (err instanceof RunCancelled) return false;
      throw err;
    });
}
