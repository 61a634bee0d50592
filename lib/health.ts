/**
 * Service health: the database answers, and a worker process has reported a heartbeat
 * within the last `WORKER_STALE_MS` (workers write one every 5 s).
 *
 * `health()` answers within `HEALTH_DATABASE_TIMEOUT_MS` whatever the database does: a
 * database that does not answer (stopped, or every pooled connection stuck) is reported as
 * `database.ok: false` when the time is up, instead of the check hanging with it. It reads
 * through raw `pg` on the shared pool because that is where a per-query client timeout can be
 * set (`query_timeout`), which also closes the connection a stuck check used.
 *
 * `workerAlive()` is the cheap check POST /runs makes before accepting a run (503 when no
 * worker is alive): one indexed query, its answer cached per process for
 * `WORKER_CHECK_CACHE_MS`, so a busy API does not ask the database on every request.
 */
import "server-only";
import { db, pool } from "@/lib/db";
import { isDatabaseOverloaded } from "@/lib/database/unavailable";

export const WORKER_STALE_MS = 15_000;

/** Longest the health check waits for the database (a free connection and its answer), ms. */
export const HEALTH_DATABASE_TIMEOUT_MS = 2_000;

export interface THealth {
  ok: boolean;
  database: { ok: boolean; error?: string };
  worker: { ok: boolean; count: number; last_seen: string | null };
}

/** `promise`, or a rejection naming `ms` when it has not settled by then. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** The health of the service; never waits for the database longer than `timeoutMs`. */
export async function health(timeoutMs: number = HEALTH_DATABASE_TIMEOUT_MS): Promise<THealth> {
  let seen: number[];
  try {
    // epoch of a TIMESTAMP(3) column holding UTC: read as UTC, whatever this process's zone
    const { rows } = await within(
      pool().query<{ seen_ms: number }>({
        text: `SELECT (extract(epoch FROM "seenAt") * 1000)::float8 AS seen_ms FROM "worker_heartbeat" ORDER BY "seenAt" DESC`,
        query_timeout: timeoutMs, // per query: pg reads it, @types/pg does not list it
      } as { text: string }),
      timeoutMs,
    );
    seen = rows.map((r) => Number(r.seen_ms));
  } catch (err) {
    const why = isDatabaseOverloaded(err) ? "busy: too many requests wait for a database connection" : "unreachable";
    return {
      ok: false,
      database: { ok: false, error: why + (process.env.NODE_ENV === "production" ? "" : `: ${(err as Error).message}`) },
      worker: { ok: false, count: 0, last_seen: null },
    };
  }
  const fresh = seen.filter((t) => Date.now() - t < WORKER_STALE_MS);
  return {
    ok: fresh.length > 0,
    database: { ok: true },
    worker: { ok: fresh.length > 0, count: fresh.length, last_seen: seen.length > 0 ? new Date(seen[0]!).toISOString() : null },
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
