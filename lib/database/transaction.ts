/**
 * A transaction on a raw `pg` connection from the shared pool (lib/db.ts `pool()`), for
 * hot paths. Commits when `fn` resolves, rolls back when it throws, always releases (closing
 * the connection instead when it failed or timed out).
 *
 * Timestamps: our columns are `TIMESTAMP(3)` holding UTC (Prisma's convention), so raw SQL
 * writes them as `utcTimestamp()` strings and never relies on the session's time zone.
 */
import "server-only";
import type pg from "pg";
import { pool } from "@/lib/db";
import { isDatabaseUnavailable } from "@/lib/database/unavailable";

export async function withPgTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool().connect();
  // A connection that failed or timed out is closed, not returned to the pool: a server that
  // does not answer would make a ROLLBACK wait the whole statement timeout again, and a
  // connection with a statement still pending cannot be reused. Closing it ends the
  // transaction on the server.
  let broken: Error | undefined;
  // A checked-out connection has no listener of pg-pool's: the server ending the session
  // between two statements (idle_in_transaction_session_timeout, a restart) would otherwise
  // be an unhandled 'error' event, which ends the process.
  const onError = (err: Error) => (broken = err);
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    if (isDatabaseUnavailable(err)) broken = err as Error;
    else await client.query("ROLLBACK").catch((rollbackErr: Error) => (broken = rollbackErr));
    throw err;
  } finally {
    client.removeListener("error", onError);
    client.release(broken);
  }
}

/** A `TIMESTAMP(3)` literal of `date` in UTC ("2026-11-21T06:30:00.123"). */
export function utcTimestamp(date: Date): string {
  return date.toISOString().slice(0, 23);
}
