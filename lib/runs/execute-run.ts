/**
 * Executes one run (worker side), through the lifecycle of lib/runs/run-state.ts:
 * `claimRun` (queued -> running), progress while the engine works, then `finalizeRun` to
 * `completed` (with its result files, in the same transaction) or `failed`.
 * Cancellation is a `finalizeRun` by the API (lib/runs/cancel-run.ts); the worker polls the
 * state every 250 ms while the run works and aborts the engine, and a finish that loses
 * the race to a cancel is rolled back.
 *
 * Failures are classified by error class (lib/runs/classify-failure.ts): the caller's data,
 * a failing step, an exceeded limit and a bug each fail the run at once with their own
 * code; only an unreachable database is thrown back to pg-boss to retry.
 */
import "server-only";
import { createHash } from "node:crypto";
import { db, type TTx } from "@/lib/db";
import { ZFlowVersion } from "@/lib/flows/definition";
import { runFlow } from "@/lib/engine/run-flow";
import { isAbortError } from "@/lib/engine/errors";
import { encodeResult } from "@/lib/formats/encode-result";
import { FORMATS_BY_KIND, FORMAT_INFO, DEFAULT_FORMAT } from "@/lib/formats/types";
import { resolveInputs } from "@/lib/runs/resolve-inputs";
import { claimRun, finalizeRun, recordProgress, type TRunError } from "@/lib/runs/run-state";
import { classifyRunFailure } from "@/lib/runs/classify-failure";
import type { TRunJob } from "@/lib/jobs/schemas";

const CANCEL_POLL_MS = 250;

class RunCancelled extends Error {}

/** Job handler of "run-execute". */
export async function executeRunJob(data: TRunJob, ctx: { signal: AbortSignal }): Promise<void> {
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

  try {
    const inputs = await resolveInputs(flow, run.request?.inputs ?? {});
    const results = await runFlow(flow, inputs, run.request?.parameters ?? {}, {
      signal: abort.signal,
      onProgress: (done, total) => {
        lastProgress = lastProgress.then(() => recordProgress(run.id, done, total));
      },
    });
    await lastProgress.catch(() => {});
    // Both formats of every result are written (so `?format=` never waits), one file at a time
    // inside the finishing transaction: each file is encoded, stored and dropped before the
    // next one is encoded, so a large result never has all its files in memory at once. A
    // cancel aborts the encoder (signal) and rolls the transaction back.
    await finish(run.id, "completed", null, async (tx) => {
      for (const r of results) {
        for (const format of FORMATS_BY_KIND[r.kind]) {
          if (abort.signal.aborted) throw new RunCancelled();
          const { body } = await encodeResult(r, format, { signal: abort.signal });
          await tx.resultFile.create({
            data: {
              runId: run.id,
              key: r.key,
              format,
              mediaType: FORMAT_INFO[format].mediaType,
              sizeBytes: body.byteLength,
              sha256: createHash("sha256").update(body).digest("hex"),
              content: body as Uint8Array<ArrayBuffer>,
            },
          });
        }
      }
      await tx.runResult.createMany({
        data: results.map((r) => ({
          runId: run.id,
          key: r.key,
          kind: r.kind,
          format: run.formats[r.key] ?? DEFAULT_FORMAT[r.kind],
          featureCount: r.kind === "layer" ? r.data.features.length : null,
          rowCount: r.kind === "table" ? r.data.rows.length : null,
        })),
      });
    });
  } catch (err) {
    if (err instanceof RunCancelled || (isAbortError(err) && !ctx.signal.aborted)) return;
    if (ctx.signal.aborted) throw err; // the job expired or the worker stops: let pg-boss retry
    const decision = classifyRunFailure(err);
    if (decision.kind === "retry") throw err;
    if (decision.bug) console.error(`[worker] run ${run.id} failed with an internal error:`, err);
    await finish(run.id, "failed", decision.error);
  } finally {
    clearInterval(poll);
    ctx.signal.removeEventListener("abort", onJobAbort);
  }
}

/**
 * Finishes a claimed run: `extra` (the result files) and `finalizeRun` in one transaction.
 * Lost race to a cancel (the run is final already): everything is rolled back.
 */
async function finish(runId: string, state: "completed" | "failed", error: TRunError | null, extra?: (tx: TTx) => Promise<void>): Promise<void> {
  await db
    .$transaction(
      async (tx) => {
        if (extra) await extra(tx);
        if (!(await finalizeRun(tx, { runId, to: state, error }))) throw new RunCancelled();
      },
      // The result files are encoded inside the transaction (see above): allow for large ones,
      // well within the job's 30-minute expiry.
      { timeout: 10 * 60_000, maxWait: 10_000 },
    )
    .catch((err) => {
      if (err instanceof RunCancelled) return;
      throw err;
    });
}
