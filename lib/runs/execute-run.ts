/**
 * Executes one run (worker side). Every state change is one conditional UPDATE, so a run
 * can never be moved backwards or finished twice:
 *   queued -> running (claim; a retried job may reclaim its own `running` run),
 *   running -> completed (with its result files, in one transaction) or failed.
 * Cancellation is an UPDATE by the API (lib/runs/cancel-run.ts); the worker polls the
 * state every 250 ms while the run works and aborts the engine, and a finish that loses
 * the race to a cancel is rolled back.
 *
 * Errors in the flow (a step failing on the data) fail the run with a message naming the
 * step; errors of the infrastructure (database down) are thrown so pg-boss retries.
 */
import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/db";
import { ZFlowVersion } from "@/lib/flows/definition";
import { runFlow } from "@/lib/engine/run-flow";
import { StepError, isAbortError } from "@/lib/engine/errors";
import { encodeResult } from "@/lib/formats/encode-result";
import { LAYER_FORMATS, TABLE_FORMATS, FORMAT_INFO, type TResultFormat } from "@/lib/formats/types";
import { usageShard, usageUpsertSql } from "@/lib/metering/usage";
import { utcTimestamp } from "@/lib/database/transaction";
import { RUN_FINAL_CHANNEL } from "@/lib/runs/run-events";
import { resolveInputs, withoutCallerData } from "@/lib/runs/resolve-inputs";
import type { TRunJob } from "@/lib/jobs/schemas";

const CANCEL_POLL_MS = 250;

class RunCancelled extends Error {}

interface TClaimed {
  id: string;
  workspaceId: string;
  flowVersionId: string;
  request: { inputs: Record<string, unknown>; parameters: Record<string, unknown> } | null;
  formats: Record<string, TResultFormat>;
  startedAt: Date;
}

/** Job handler of "run-execute". */
export async function executeRunJob(data: TRunJob, ctx: { signal: AbortSignal }): Promise<void> {
  const rows = await db.$queryRaw<TClaimed[]>`
    UPDATE "run" SET "state" = 'running', "startedAt" = coalesce("startedAt", now())
    WHERE "id" = ${data.runId}::uuid AND "state" IN ('queued', 'running')
    RETURNING "id", "workspaceId", "flowVersionId", "request", "formats", "startedAt"`;
  const run = rows[0];
  if (!run) return; // cancelled before it started, or already final
  const version = await db.flowVersion.findUniqueOrThrow({ where: { id: run.flowVersionId } });
  const flow = ZFlowVersion.parse(version.definition);
  // Progress is visible from the start: 0 of N steps.
  await db.run.updateMany({ where: { id: run.id, state: "running" }, data: { stepsDone: 0, stepsTotal: flow.steps.length } });

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
        lastProgress = lastProgress
          .then(() => db.run.updateMany({ where: { id: run.id, state: "running" }, data: { stepsDone: done, stepsTotal: total } }))
          .then(() => {});
      },
    });
    await lastProgress.catch(() => {});
    // Both formats of every result are written (so `?format=` never waits), one file at a time
    // inside the finishing transaction: each file is encoded, stored and dropped before the
    // next one is encoded, so a large result never has all its files in memory at once. A
    // cancel aborts the encoder (signal) and rolls the transaction back.
    await finish(run, "completed", null, async (tx) => {
      for (const r of results) {
        const formats: readonly TResultFormat[] = r.kind === "layer" ? LAYER_FORMATS : TABLE_FORMATS;
        for (const format of formats) {
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
          format: run.formats[r.key] ?? (r.kind === "layer" ? "geojson" : "csv"),
          featureCount: r.kind === "layer" ? r.data.features.length : null,
          rowCount: r.kind === "table" ? r.data.rows.length : null,
        })),
      });
    });
  } catch (err) {
    if (err instanceof RunCancelled || (isAbortError(err) && !ctx.signal.aborted)) return;
    if (ctx.signal.aborted) throw err; // the job expired or the worker stops: let pg-boss retry
    if (err instanceof StepError || isFlowDataError(err)) {
      await finish(run, "failed", describeError(err));
      return;
    }
    throw err;
  } finally {
    clearInterval(poll);
    ctx.signal.removeEventListener("abort", onJobAbort);
  }
}

/** Errors that come from the caller's data or the flow rather than from our infrastructure. */
function isFlowDataError(err: unknown): boolean {
  return err instanceof TypeError || err instanceof RangeError || (err instanceof Error && /layer|input|geometry|coordinates/i.test(err.message));
}

function describeError(err: unknown): { code: string; message: string; step?: string } {
  if (err instanceof StepError) return { code: "step_failed", message: err.message, step: err.stepId };
  return { code: "run_failed", message: err instanceof Error ? err.message : String(err) };
}

/**
 * Moves a running run to a final state in one transaction: the state, timestamps and
 * processing time, the caller data removed, metering, extra writes (result files) and the
 * NOTIFY that wakes waiting requests. Lost race to a cancel: everything is rolled back.
 */
async function finish(
  run: TClaimed,
  state: "completed" | "failed",
  error: object | null,
  extra?: (tx: Parameters<Parameters<typeof db.$transaction>[0]>[0]) => Promise<void>,
): Promise<void> {
  await db
    .$transaction(
      async (tx) => {
        if (extra) await extra(tx);
        const finishedAt = new Date();
        const processingMs = Math.max(0, finishedAt.getTime() - run.startedAt.getTime());
        // One statement for the state change, its metering and the NOTIFY: the moment a
        // waiting request learns of the result is as close to finished_at as it can be.
        const done = await tx.$queryRawUnsafe<{ id: string }[]>(
          `WITH "done" AS (
             UPDATE "run" SET "state" = $2::text::"RunState", "finishedAt" = $3::timestamp(3), "processingMs" = $4::int,
               "error" = $5::jsonb, "request" = coalesce($6::jsonb, "request"),
               "stepsDone" = CASE WHEN $2::text = 'completed' THEN "stepsTotal" ELSE "stepsDone" END
             WHERE "id" = $1::uuid AND "state" = 'running'
             RETURNING "id", "workspaceId"),
           "metered" AS (${usageUpsertSql('"workspaceId"', 7, '"done"')} RETURNING 1),
           -- pg_notify returns void, which clients cannot read: count its rows instead.
           "notified" AS (SELECT pg_notify('${RUN_FINAL_CHANNEL}', "id"::text) FROM "done")
           SELECT "id"::text AS "id", (SELECT count(*) FROM "notified")::int AS "notified", (SELECT count(*) FROM "metered")::int AS "metered" FROM "done"`,
          run.id,
          state,
          utcTimestamp(finishedAt),
          processingMs,
          error ? JSON.stringify(error) : null,
          run.request ? JSON.stringify(withoutCallerData(run.request)) : null,
          usageShard(),
          0,
          processingMs,
          0,
        );
        if (done.length === 0) throw new RunCancelled();
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
