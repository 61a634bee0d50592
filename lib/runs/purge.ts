/**
 * Periodic maintenance (job "maintenance-purge", every 15 minutes):
 * - idempotency records past `expiresAt` (kept IDEMPOTENCY_RETENTION_HOURS, >= 24 h);
 * - result files of runs final for longer than RESULT_RETENTION_HOURS (the run stays,
 *   its results answer 404 afterwards);
 * - caller data of final runs (defence in depth; finishing already removes it);
 * - runs stuck in `queued`/`running` longer than the job's expiry and retries allow
 *   (a worker died and pg-boss gave up) become `failed` (`run_expired`) through
 *   `finalizeRun`, like every other final state: processing time metered, caller data
 *   removed, waiting requests woken;
 * - rate-limit windows that have ended (lib/rate-limit).
 */
import "server-only";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { purgeRateLimitWindows } from "@/lib/rate-limit/rate-limit";
import { finalizeRun, WITHOUT_CALLER_DATA_SQL, type TRunError } from "@/lib/runs/run-state";

/** Longest a run can legitimately stay unfinished: 2 attempts x 30 min + margin. */
const STUCK_AFTER_MS = 65 * 60_000;

const RUN_EXPIRED_ERROR: TRunError = { code: "run_expired", message: "The run did not finish in time and was stopped." };

export interface TPurgeCounts {
  idempotencyRecords: number;
  resultFiles: number;
  callerData: number;
  expiredRuns: number;
  rateLimitWindows: number;
}

/** The job handler: one maintenance pass. */
export async function purgeExpired(): Promise<void> {
  await purgeExpiredCounted();
}

/** One maintenance pass; returns how many rows each rule touched. */
export async function purgeExpiredCounted(): Promise<TPurgeCounts> {
  const now = Date.now();
  const idem = await db.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: new Date(now) } } });
  const cutoff = new Date(now - env().RESULT_RETENTION_HOURS * 3600_000);
  const files = await db.resultFile.deleteMany({ where: { run: { finishedAt: { lte: cutoff } } } });
  await db.resultFileChunk.deleteMany({ where: { run: { finishedAt: { lte: cutoff } } } });
  // Caller data left in a final run (finalizeRun normally removes it).
  const callerData = await db.$executeRawUnsafe(
    `UPDATE "run" SET "request" = ${WITHOUT_CALLER_DATA_SQL}
     WHERE "state" IN ('completed', 'failed', 'cancelled') AND "request" IS NOT NULL
       AND EXISTS (SELECT 1 FROM jsonb_each(coalesce("request"->'inputs', '{}'::jsonb)) AS i(name, value)
                   WHERE jsonb_typeof(i.value) = 'object' AND (i.value ? 'geojson' OR i.value ? 'rows' OR i.value ? 'area'))`,
  );
  const stuck = await db.run.findMany({
    where: { state: { in: ["queued", "running"] }, createdAt: { lte: new Date(now - STUCK_AFTER_MS) } },
    select: { id: true },
  });
  let expiredRuns = 0;
  for (const { id } of stuck) {
    const done = await db.$transaction((tx) => finalizeRun(tx, { runId: id, to: "failed", error: RUN_EXPIRED_ERROR }));
    if (done) expiredRuns++;
  }
  const windows = await purgeRateLimitWindows();
  return { idempotencyRecords: idem.count, resultFiles: files.count, callerData, expiredRuns, rateLimitWindows: windows };
}
