/**
 * Rate limiting per API key, shared by every web process through Postgres.
 *
 * Algorithm: fixed one-minute windows on the database clock. Each authenticated call runs
 * one atomic upsert on `rate_limit_window` (key, workspace, window start) that increments
 * and returns the window's count, so concurrent requests in any number of processes are
 * counted exactly, without a read-then-write. The quota is the plan's `rateLimitPerMinute`
 * of the workspace that owns the called API; the counter is per key and per such workspace.
 * A call over the quota is answered 429 (problem `rate_limited`) with `Retry-After` and is
 * not metered. Fixed windows may let up to twice the quota through around a window
 * boundary; that is the documented trade-off for one cheap statement per call.
 *
 * Headers: see ./headers.ts (IETF draft "RateLimit header fields for HTTP").
 */
import "server-only";
import { db, pool } from "@/lib/db";
import type { TRateLimitState } from "@/lib/rate-limit/headers";

export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** Counts one call of `keyId` against APIs of `workspaceId` and returns the window's state. */
export async function consumeRateLimit(keyId: string, workspaceId: string, limit: number): Promise<TRateLimitState & { authVersion: bigint }> {
  // Raw pg on the shared pool: this runs on every authenticated call. It also returns the
  // committed auth_version, so the HTTP door checks its cached caller without another round
  // trip (lib/keys/caller-cache.ts).
  const { rows } = await pool().query<{ count: number; reset_ms: number; auth_version: string | null }>(
    `INSERT INTO "rate_limit_window" ("keyId", "workspaceId", "windowStart", "count")
     VALUES ($1::uuid, $2::uuid, date_trunc('minute', now() AT TIME ZONE 'utc'), 1)
     ON CONFLICT ("keyId", "workspaceId", "windowStart")
       DO UPDATE SET "count" = "rate_limit_window"."count" + 1
     RETURNING "count",
       (extract(epoch FROM ("windowStart" + interval '1 minute' - (now() AT TIME ZONE 'utc'))) * 1000)::float8 AS reset_ms,
       (SELECT "version" FROM "auth_version" WHERE "id" = 1)::text AS auth_version`,
    [keyId, workspaceId],
  );
  const row = rows[0]!;
  return {
    limit,
    windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
    used: Number(row.count),
    resetSeconds: Number(row.reset_ms) / 1000,
    authVersion: BigInt(row.auth_version ?? 0),
  };
}

/** Removes windows that ended (called by the maintenance purge). */
export async function purgeRateLimitWindows(): Promise<number> {
  return db.$executeRaw`
    DELETE FROM "rate_limit_window" WHERE "windowStart" < date_trunc('minute', now() AT TIME ZONE 'utc') - interval '1 minute'`;
}
