/**
 * The worker process: executes runs and maintenance jobs from pg-boss on the same
 * Postgres as the app. Start more of them (on more machines) to scale out.
 *
 * - Every job payload is parsed with its registry schema before the handler sees it.
 * - A heartbeat row every 5 s tells /api/health that a worker is alive.
 * - Runs execute in the run pool's child processes (worker/runtime/run-pool.ts), started here up
 *   front (one per `WORKER_CONCURRENCY` slot), each within its run's memory and time budget.
 * - SIGTERM/SIGINT: stop taking jobs, let running ones finish (up to 25 s), then exit;
 *   anything unfinished is retried by pg-boss after expiry.
 */
import os from "node:os";
import { randomUUID } from "node:crypto";
import { PgBoss } from "pg-boss";
import { env } from "@/lib/env";
import { db } from "@/lib/db";
import { JOB_NAMES, jobs } from "@/lib/jobs/registry";
import { runPool } from "@/worker/runtime/run-pool";
import { JOB_HANDLERS } from "./job-handlers";

const HEARTBEAT_MS = 5_000;

async function main(): Promise<void> {
  const id = randomUUID();
  const startedAt = new Date();
  // Supervise and monitor every 5 s: the job of a worker that died (missed heartbeats) is
  // retried within heartbeatSeconds + 5 s instead of pg-boss's default minute.
  const boss = new PgBoss({
    connectionString: env().DATABASE_URL,
    useListenNotify: true,
    max: 6,
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
  });
  boss.on("error", (err) => console.error("[worker] pg-boss error:", err.message));
  await boss.start();
  runPool().warm();

  for (const name of JOB_NAMES) {
    const def = jobs[name];
    const handler = await JOB_HANDLERS[name]();
    // A slow webhook receiver (up to its 10 s limit) must not hold up every other delivery.
    const slots = name === "run-execute" ? env().WORKER_CONCURRENCY : name === "webhook-deliver" ? 4 : 1;
    // One work() per slot, so each slot knows its own worker id. pg-boss waits between
    // fetches unless woken (NOTIFY on a new job, or burst mode, which needs batches); a slot
    // that just finished a job wakes itself, so a backlog drains at full speed and an empty
    // queue falls back to NOTIFY plus a 5 s backstop poll.
    for (let slot = 0; slot < slots; slot++) {
      let workerId = "";
      workerId = await boss.work(name, { localConcurrency: 1, pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 5 }, async ([job]) => {
        if (!job) return;
        try {
          const parsed = def.schema.safeParse(job.data);
          if (!parsed.success) {
            throw new Error(`Invalid payload for job ${name}: ${parsed.error.message}`);
          }
          await (handler as (d: unknown, c: { signal: AbortSignal; jobId: string }) => Promise<void>)(parsed.data, {
            signal: job.signal,
            jobId: job.id,
          });
        } catch (err) {
          // pg-boss keeps the error in the job's output; the log is where operators look.
          console.error(`[worker] job ${name} ${job.id} (attempt ${job.retryCount + 1}) failed:`, err);
          throw err;
        } finally {
          if (workerId) boss.notifyWorker(workerId);
        }
      });
    }
  }

  const beat = () =>
    db.workerHeartbeat
      .upsert({
        where: { id },
        create: { id, hostname: os.hostname(), pid: process.pid, startedAt, seenAt: new Date() },
        update: { seenAt: new Date() },
      })
      .catch((err: Error) => console.error("[worker] heartbeat failed:", err.message));
  await beat();
  const timer = setInterval(beat, HEARTBEAT_MS);
  const e = env();
  console.log(
    `[worker] ready (pid ${process.pid}, concurrency ${e.WORKER_CONCURRENCY}; per run: ${e.RUN_MEMORY_MB} MB, ${e.RUN_TIME_LIMIT_SECONDS} s, results ${e.RUN_MAX_RESULT_MB} MB)`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[worker] ${signal}: finishing running jobs...`);
    clearInterval(timer);
    await boss.stop({ graceful: true, timeout: 25_000, close: true }).catch(() => {});
    await runPool().close();
    await db.workerHeartbeat.delete({ where: { id } }).catch(() => {});
    await db.$disconnect().catch(() => {});
    console.log("[worker] stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((err) => {
  console.error("[worker] failed to start:", err);
  process.exit(1);
});
