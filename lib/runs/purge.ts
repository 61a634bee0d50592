/**
 * Periodic maintenance (job "maintenance-purge", every 15 minutes):
 * - idempotency records past `expiresAt` (kept IDEMPOTENCY_RETENTION_HOURS, >= 24 h);
 * - result files of runs final for longer than RESULT_RETENTION_HOURS (the run stays,
 *   its results answer 404 afterwards);
 * - caller data of final runs (defence in depth; finishing already removes it);
 * - runs stuck in `queued`/`running` longer than the job's expiry and retries allow
 *   (a worker died and pg-boss gave up) become `failed`, never left `running`;
 * - rate-limit windows that have ended (lib/rate-limit).
 */
import "server-only";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { purgeRateLimitWindows } from "@/lib/rate-limit/rate-limit";
import { withoutCallerData } from "@/lib/runs/resolve-inputs";

/** Longest a run can legitimately stay unfinished: 2 attempts x 30 min + margin. */
const STUCK_AFTER_MS = 65 * 60_000;

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
  // Caller data left in a final run (the finishing transaction normally removes it).
  const leftovers = await db.$queryRaw<{ id: string; request: { inputs?: Record<string, unknown>; parameters?: unknown } }[]>`
    SELECT "id", "request" FROM "run"
    WHERE "state" IN ('completed', 'failed', 'cancelled') AND "request" IS NOT NULL
      AND EXISTS (SELECT 1 FROM jsonb_each(coalesce("request"->'inputs', '{}'::jsonb)) AS i(name, value)
                  WHERE jsonb_typeof(i.value) = 'object' AND (i.value ? 'geojson' OR i.value ? 'rows' OR i.value ? 'area'))
    LIMIT 500`;
  for (const r of leftovers) {
    await db.run.update({ where: { id: r.id }, data: { request: withoutCallerData(r.request) } });
  }
  const expired = await db.run.updateMany({
    where: { state: { in: ["queued", "running"] }, createdAt: { lte: new Date(now - STUCK_AFTER_MS) } },
    data: { state: "failed", finishedAt: new Date(now), error: { code: "run_expired", message: "The run did not finish in time and was stopped." } },
  });
  const windows = await purgeRateLimitWindows();
  return { idempotencyRecords: idem.count, resultFiles: files.count, callerData: leftovers.length, expiredRuns: expired.count, rateLimitWindows: windows };
}
