/**
 * Job "result-format": makes one format of one result of a completed run that was not written
 * with the run (the caller asked for the other one), from the result's lossless copy
 * (lib/runs/result-spill.ts), in the runner the worker gives the job (a process of its run pool,
 * worker/runtime/run-pool.ts) with the pool's memory and time budget (its own, not the run's).
 * Enqueued by the first download that asks for it (lib/runs/get-result-file.ts), retried with
 * backoff by pg-boss; a later download enqueues it again, so a format is never lost for good
 * while the copy is kept.
 *
 * Idempotent: a file that exists already is left as it is; the row is inserted after the blob
 * is complete, so a file is visible only once whole. Two workers making the same format at once
 * (a job retried while its first attempt still works, or two enqueued by different downloads)
 * each write an object of their own; the first row wins and the other object is deleted.
 * Work that passes a budget of the pool (its memory, its time, or the run's result size limit)
 * is not retried, as a run over its budget is not: the same copy and writer would pass it again.
 * A `result_format_failure` row records the limit, and downloads of that format answer 422 with
 * it at once. Either row (the file's, or the failure's) is inserted together with
 * the `result_format` notification (lib/runs/run-events.ts), which wakes the downloads waiting for
 * that format (lib/runs/get-result-file.ts).
 */
import "server-only";
import { blobStore } from "@/lib/blobs";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { ResourceLimitError } from "@/lib/errors";
import type { TResultFormatJob } from "@/lib/jobs/schemas";
import { fileRow } from "@/lib/runs/execute-run";
import type { TRunner, TWrittenFile } from "@/lib/runs/run-task";
import { RESULT_FORMAT_CHANNEL, resultFormatId } from "@/lib/runs/run-events";

/** Job handler of "result-format"; the worker gives it the runner the format is made in. */
export async function makeResultFormatJob(data: TResultFormatJob, ctx: { signal: AbortSignal; runner: TRunner }): Promise<void> {
  const result = await db.runResult.findUnique({
    where: { runId_key: { runId: data.runId, key: data.key } },
    select: { spillKey: true, run: { select: { state: true } } },
  });
  if (!result?.spillKey || result.run.state !== "completed") return; // purged, or not a completed run
  const exists = await db.resultFile.findUnique({ where: { runId_key_format: data }, select: { key: true } });
  if (exists) return;
  // A Prisma query runs when awaited: this one runs inside one of the two transactions below.
  const notify = db.$executeRaw`SELECT pg_notify(${RESULT_FORMAT_CHANNEL}, ${resultFormatId(data)})`;
  let file: TWrittenFile;
  try {
    file = await ctx.runner.format({ ...data, spillKey: result.spillKey, maxResultBytes: env().RUN_MAX_RESULT_MB * 1024 * 1024, signal: ctx.signal });
  } catch (err) {
    // Anything else (a run process killed from outside, the database) is retried by pg-boss; a later download enqueues it again.
    if (!(err instanceof ResourceLimitError)) throw err;
    await db.$transaction([db.resultFormatFailure.createMany({ data: [{ ...data, limit: err.limit }], skipDuplicates: true }), notify]);
    return;
  }
  await db.$transaction([db.resultFile.createMany({ data: [fileRow(data.runId, file)], skipDuplicates: true }), notify]);
  const kept = await db.resultFile.findUnique({ where: { runId_key_format: data }, select: { blobKey: true } });
  if (kept?.blobKey !== file.blobKey) await blobStore().delete(file.blobKey);
}
