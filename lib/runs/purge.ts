/**
 * Periodic maintenance (job "maintenance-purge", every 15 minutes):
 * - idempotency records past `expiresAt` (kept IDEMPOTENCY_RETENTION_HOURS, >= 24 h);
 * - result files of runs final for longer than RESULT_RETENTION_HOURS (the run stays,
 *   its results answer 404 afterwards);
 * - caller data of final runs (defence in depth; finishing already removes it);
 * - runs stuck in `queued`/`running` longer than the job's expiry and retries allow
 *   (a worker died and pg-boss gave up) become `failed`, never left `running`.
 */
import "server-only";
import { db } from "@/lib/db";
import { env } from "@/lib/env";

/** Longest a run can legitimately stay unfinished: 2 attempts x 30 min + margin. */
const STUCK_AFTER_MS = 65 * 60_000;

export async function purgeExpired(): Promise<void> {
  const now = Date.now();
  await db.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: new Date(now) } } });
  const cutoff = new Date(now - env().RESULT_RETENTION_HOURS * 3600_000);
  await db.resultFile.deleteMany({ where: { run: { finishedAt: { lte: cutoff } } } });
  await db.run.updateMany({
    where: { state: { in: ["queued", "running"] }, createdAt: { lte: new Date(now - STUCK_AFTER_MS) } },
    data: { state: "failed", finishedAt: new Date(now), error: { code: "run_expired", message: "The run did not finish in time and was stopped." } },
  });
}
