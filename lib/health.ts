/**
 * Service health: the database answers, and a worker process has reported a heartbeat
 * within the last `WORKER_STALE_MS` (workers write one every 5 s).
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
