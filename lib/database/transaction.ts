/**
 * A transaction on a raw `pg` connection from the shared pool (lib/db.ts `pool()`), for
 * hot paths. Commits when `fn` resolves, rolls back when it throws, always releases.
 *
 * Timestamps: our columns are `TIMESTAMP(3)` holding UTC (Prisma's convention), so raw SQL
 * writes them as `utcNow()` strings and never relies on the session's time zone.
 */
import "server-only";
import type pg from "pg";
import { pool } from "@/lib/db";

export async function withPgTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool().connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** A `TIMESTAMP(3)` literal of `date` in UTC ("2026-11-21T06:30:00.123"). */
export function utcTimestamp(date: Date): string {
  return date.toISOString().slice(0, 23);
}
