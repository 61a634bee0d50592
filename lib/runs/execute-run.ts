/**
 * Executes one run (worker side), through the lifecycle of lib/runs/run-state.ts:
 * `claimRun` (queued -> running), progress while the engine works, then `finalizeRun` to
 * `completed` (with its result files, in the same transaction) or `failed`.
 *
 * - The work runs in the runner the worker gives the job (lib/runs/run-task.ts: a process of
 *   its run pool) within the run's budgets (`RUN_MEMORY_MB`, `RUN_TIME_LIMIT_SECONDS`,
 *   `RUN_MAX_RESULT_MB`, `RUN_MAX_ROWS`): a run over one fails at once with
 *   `resources_exhausted` naming the limit, is not retried, and the other runs go on.
 * - Inputs by reference (`{"href"}`) are fetched and imported first, one after the other
 *   (lib/runs/href-input.ts): each is one more unit of progress before the steps, and its file
 *   under the run's prefix is deleted before the final state is written.
 * - The runner writes each result's requested format (or its kind's default) and its lossless
 *   copy to the blob store (lib/runs/result-blobs.ts); their rows become visible with the final
 *   state. Another format is made from the copy on first download (lib/runs/make-result-format.ts).
 * - Cancellation is a `finalizeRun` by the API (lib/runs/cancel-run.ts), whose `run_final`
 *   notification (lib/runs/run-events.ts) aborts the runner's work; a finish that loses the race
 *   is rolled back. A run that does not complete leaves no files: the worker deletes its prefix,
 *   and the maintenance purge sweeps what a crash left behind.
 * - Failures are classified by error class (lib/runs/classify-failure.ts); an unreachable
 *   database or a run process killed from outside is thrown back to pg-boss to retry.
 */
import "server-only";
import { db, type TTx } from "@/lib/db";
import { env } from "@/lib/env";
import { InputDataError } from "@/lib/errors";
import { ZFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import { isAbortError } from "@/lib/engine/errors";
import { FORMAT_INFO } from "@/lib/formats/registry";
import type { TRunError } from "@/lib/runs/run-document";
import { claimRun, finalizeRun, recordProgress } from "@/lib/runs/run-state";
import { progressReporter } from "@/lib/runs/progress-reporter";
import { classifyRunFailure } from "@/lib/runs/classify-failure";
import { runPrefix } from "@/lib/runs/result-blobs";
import type { TProcessInput, TRunner, TWrittenFile } from "@/lib/runs/run-task";
import { waitForRunFinal } from "@/lib/runs/run-events";
import { blobStore } from "@/lib/blobs";
import type { TRunJob } from "@/lib/jobs/schemas";
import { PREVIEW_ROWS } from "@/lib/runs/preview-rows";
import { importHrefInput, inputBudget, inputFilesPrefix, runAllowHosts } from "@/lib/runs/href-input";
import { isHrefValue } from "@/lib/flows/run-request";
import { measure } from "@/lib/runs/run-measures";

class RunCancelled extends Error {}

/**
 * The inputs as the run process takes them: layers by their current file (a `layer_id` names a
 * layer of the run's workspace, that of its API), an `href` by the file it was imported into
 * (`onFetched` after each), caller data as in the request.
 */
async function describeInputs(
  run: { id: string; workspaceId: string },
  flow: TFlowVersion,
  values: Record<string, unknown>,
  signal: AbortSignal,
  onFetched: (done: number) => Promise<void>,
): Promise<Record<string, TProcessInput>> {
  const inputs: Record<string, TProcessInput> = {};
  let allowHosts: string[] | undefined;
  const budget = inputBudget();
  let fetched = 0;
  for (const input of flow.inputs) {
    const v = values[input.name] ?? null;
    if (isHrefValue(v)) {
      allowHosts ??= await runAllowHosts(run.id);
      inputs[input.name] = { layer: await importHrefInput({ runId: run.id, input, value: v, allowHosts, budget, signal }) };
      await onFetched(++fetched);
    } else if (v !== null && typeof v === "object" && "layer_id" in v) {
      const id = String(v.layer_id);
      const layer = await db.layer.findUnique({
        where: { workspaceId_id: { workspaceId: run.workspaceId, id } },
        select: { kind: true, fileKey: true, itemCount: true, bbox: true, columns: true },
      });
      if (!layer) throw new InputDataError(`Layer "${id}" does not exist (any more).`, input.name);
      if (!layer.fileKey) throw new InputDataError(`Layer "${id}" has no data yet.`, input.name);
      const columns = (layer.columns as { name: string }[]).map((c) => c.name);
      inputs[input.name] = { layer: { id, fileKey: layer.fileKey, kind: layer.kind, itemCount: layer.itemCount, bbox: layer.bbox, columns } };
    } else inputs[input.name] = v === null ? null : { value: v };
  }
  return inputs;
}

/** The `result_file` row of a file the run process wrote. */
export function fileRow(runId: string, f: TWrittenFile) {
  return {
    runId,
    key: f.key,
    format: f.format,
    mediaType: FORMAT_INFO[f.format].mediaType,
    sizeBytes: BigInt(f.sizeBytes),
    sha256: f.sha256,
    blobKey: f.blobKey,
  };
}

/** Job handler of "run-execute"; the worker gives it the runner its runs execute in. */
export async function executeRunJob(data: TRunJob, ctx: { signal: AbortSignal; runner: TRunner }): Promise<void> {
  const run = await claimRun(data.runId);
  if (!run) return; // cancelled before it started, or already final
  const claimed = performance.now();
  // A preview runs its stored document (lib/runs/preview-run.ts), any other run its flow version.
  const definition = run.flowVersionId ? (await db.flowVersion.findUniqueOrThrow({ where: { id: run.flowVersionId } })).definition : run.flowDocument;
  const flow = ZFlowVersion.parse(definition);
  // Progress is visible from the start: 0 of N (the href inputs to fetch, then the steps).
  const fetches = Object.values(run.request?.inputs ?? {}).filter(isHrefValue).length;
  await recordProgress(run.id, 0, fetches + flow.steps.length);

  const cancel = new AbortController();
  const signal = AbortSignal.any([ctx.signal, cancel.signal]);
  // A cancel (or any other final state written meanwhile) aborts the work. waitForRunFinal also
  // asks the database after a gap in notifications and every 5 s besides: a LISTEN connection
  // that dies without an error (half-open TCP) would otherwise leave a cancelled run working
  // to its end (its finish would still be rolled back).
  const watching = new AbortController();
  const notRunning = async () => (await db.run.findUnique({ where: { id: run.id }, select: { state: true } }))?.state !== "running";
  waitForRunFinal(run.id, Infinity, notRunning, watching.signal)
    .then((final) => final && cancel.abort())
    .catch(() => {});
  const progress = progressReporter((done, total) => recordProgress(run.id, done, total));

  let completed = false;
  try {
    const inputs = await describeInputs(run, flow, run.request?.inputs ?? {}, signal, (done) => recordProgress(run.id, done, fetches + flow.steps.length));
    const handed = performance.now();
    measure("run.before", claimed, handed);
    const answer = await ctx.runner.run({
      runId: run.id,
      flow,
      inputs,
      params: run.request?.parameters ?? {},
      // Each result's format, as creation stored it (the requested one, else its kind's default).
      files: flow.results.map((r) => ({ key: r.key, format: run.formats[r.key]! })),
      maxResultBytes: env().RUN_MAX_RESULT_MB * 1024 * 1024,
      maxRows: env().RUN_MAX_ROWS,
      headRows: run.flowVersionId ? undefined : PREVIEW_ROWS,
      signal,
      onProgress: (done, total) => progress.report(fetches + done, fetches + total),
    });
    const answered = performance.now();
    measure("run.process", handed, answered);
    await progress.stop();
    // The href inputs' files are read no more: gone before the run is seen final.
    await dropInputFiles(run.id, fetches);
    if (signal.aborted) throw new RunCancelled();
    completed = await finish(run.id, "completed", null, async (tx) => {
      await tx.resultFile.createMany({ data: answer.files.map((f) => fileRow(run.id, f)) });
      await tx.runResult.createMany({
        data: answer.results.map((r) => ({
          runId: run.id,
          key: r.key,
          kind: r.kind,
          format: run.formats[r.key]!,
          featureCount: r.featureCount,
          rowCount: r.rowCount,
          spillKey: r.spillKey,
        })),
      });
    });
    measure("run.after", answered);
  } catch (err) {
    // A cancel made the run final already: only its files are left to drop (below).
    if (!(err instanceof RunCancelled || (isAbortError(err) && !ctx.signal.aborted))) {
      if (ctx.signal.aborted) throw err; // the job expired or the worker stops: let pg-boss retry
      const decision = classifyRunFailure(err);
      if (decision.kind === "retry") throw err;
      if (decision.bug) console.error(`[worker] run ${run.id} failed with an internal error:`, err);
      await dropInputFiles(run.id, fetches);
      await finish(run.id, "failed", decision.error);
    }
  } finally {
    watching.abort();
  }

  // Failed, cancelled, or a cancel won the race with the final transaction: its files go.
  if (!completed) await dropRunFiles(run.id);
}

/** Deletes the files a run's href inputs were imported into (when it has any). */
async function dropInputFiles(runId: string, fetches: number): Promise<void> {
  if (fetches > 0) await dropRunFiles(runId, inputFilesPrefix(runId));
}

/** Deletes every blob a run that did not complete wrote, or those under `prefix` (a crash's leftovers are swept by the purge); never throws. */
async function dropRunFiles(runId: string, prefix = runPrefix(runId)): Promise<void> {
  await blobStore()
    .deletePrefix(prefix)
    .catch((err: Error) => console.error(`[worker] run ${runId}: deleting its files failed:`, err.message));
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
