/**
 * Service health: the database answers, and a worker process has reported a heartbeat
 * within the last `WORKER_STALE_MS` (workers write one every 5 s).
 *
 * `workerAlive()` is the cheap check POST /runs makes before accepting a run (503 when no
 * worker is alive): one indexed query, its answer cached per process for
 * `WORKER_CHECK_CACHE_MS`, so a busy API does not ask the database on every request.
 */
import "server-only";
import { db } from "@/lib/db";

export const WORKER_STALE_MS = 15_000;

export interface THealth {
  ok: boolean;
  database: { ok: boolean; error?: string };
  worker: { ok: boolean; count: number; last_seen: string | null };
}

export async function health(): Promise<THealth> {
  try {
    await db.$queryRaw`SELECT 1`;
  } catch (err) {
    return {
      ok: false,
      database: { ok: false, error: "unreachable" + (process.env.NODE_ENV === "production" ? "" : `: ${(err as Error).message}`) },
      worker: { ok: false, count: 0, last_seen: null },
    };
  }
  const beats = await db.workerHeartbeat.findMany({ orderBy: { seenAt: "desc" } });
  const fresh = beats.filter((b) => Date.now() - b.seenAt.getTime() < WORKER_STALE_MS);
  return {
    ok: fresh.length > 0,
    database: { ok: true },
    worker: { ok: fresh.length > 0, count: fresh.length, last_seen: beats[0]?.seenAt.toISOString() ?? null },
  };
}

/** How long one process trusts its last worker-alive answer, ms. */
export const WORKER_CHECK_CACHE_MS = 1_500;

const workerCheck: { at: number; alive: boolean; pending?: Promise<boolean> } = { at: 0, alive: false };

/**
 * True when some worker wrote a heartbeat within `WORKER_STALE_MS`. Cached for
 * `WORKER_CHECK_CACHE_MS`; concurrent callers share one query. Throws when the database
 * cannot be reached (the caller maps that to 503).
 */
export async function workerAlive(): Promise<boolean> {
  const now = Date.now();
  if (now - workerCheck.at < WORKER_CHECK_CACHE_MS) return workerCheck.alive;
  workerCheck.pending ??= db.workerHeartbeat
    .findFirst({ where: { seenAt: { gt: new Date(now - WORKER_STALE_MS) } }, select: { id: true } })
    .then((beat) => {
      workerCheck.alive = beat !== null;
      workerCheck.at = Date.now();
      return workerCheck.alive;
    })
    .finally(() => {
      workerCheck.pending = undefined;
    });
  return workerCheck.pending;
}
