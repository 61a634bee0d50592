/**
 * Throttling of password guesses (sign-in and the current password of a password change), in
 * Postgres so every web process shares it:
 * - per (email, source): after `MAX_FAILURES` failures within `WINDOW_MINUTES`, further
 *   attempts are refused until the oldest of them leaves the window, whether the password is
 *   right or not; the source is the client address for a sign-in and
 *   `PASSWORD_CHANGE_SOURCE` for a password change (the session names the account already);
 * - per email from any source: `MAX_FAILURES_PER_EMAIL` in the same window, so rotating
 *   addresses (or a forged `X-Forwarded-For`) does not buy unlimited guesses, and guesses
 *   through the password-change form count against the account like sign-in guesses.
 *
 * Atomic: an attempt is reserved before its password is checked (`reserveAttempt`): under a
 * transaction-scoped advisory lock on the email, the recent failures are counted and, when
 * under both limits, a failure row is written at once, committed before the password is
 * checked. Concurrent attempts on one email therefore queue on the lock for that short
 * statement and each sees the reservations before it, so at most `MAX_FAILURES` passwords
 * are checked however many attempts arrive in parallel; `settleAttempt` then keeps or removes the row.
 *
 * Unknown emails are counted like known ones, so the answers never reveal which accounts
 * exist. Refused attempts write nothing: a lock-out ends `WINDOW_MINUTES` after the failure
 * that caused it.
 */
import "server-only";
import { db } from "@/lib/db";

export const MAX_FAILURES = 5;
export const MAX_FAILURES_PER_EMAIL = 20;
export const WINDOW_MINUTES = 15;
/** The `source` of attempts made through the password-change form. */
export const PASSWORD_CHANGE_SOURCE = "password-change";

export type TAttempt = { ok: true; id: bigint; email: string; source: string } | { ok: false; retryAfterSeconds: number };

/** The tail of each email's queue of attempts in this process (see `oneAtATime`). */
const queues = new Map<string, Promise<void>>();

/**
 * Runs `fn` after the earlier calls for `key` in this process have settled. Attempts on one
 * email wait for each other anyway (the advisory lock below); queued here, they wait without a
 * database connection each: 50 parallel guesses on one email held the pool's 20 connections,
 * each waiting on the lock, and the others failed to start their transaction in time.
 * The lock still orders the attempts of several processes.
 */
function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const result = (queues.get(key) ?? Promise.resolve()).then(fn);
  const tail = result.then(
    () => {},
    () => {},
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return result;
}

/**
 * Reserves one password check for `email` (normalised by the caller) from `source`, or says how
 * many seconds until one is allowed. Call `settleAttempt` once the password was checked.
 */
export async function reserveAttempt(email: string, source: string): Promise<TAttempt> {
  return oneAtATime(email, () => reserveAttemptNow(email, source));
}

async function reserveAttemptNow(email: string, source: string): Promise<TAttempt> {
  return db.$transaction(async (tx) => {
    // Serialises the attempts of one email for the count-and-insert below (released at commit).
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`password-attempt:${email}`}, 0))`;
    // Seconds until the limit-th most recent failure (per pair, per email) leaves the window; 0 when fewer.
    const [wait] = await tx.$queryRaw<{ pair: number; email: number }[]>`
      WITH recent AS (
        SELECT "ip", "createdAt" FROM "sign_in_failure"
        WHERE "email" = ${email} AND "createdAt" > (clock_timestamp() AT TIME ZONE 'utc') - make_interval(mins => ${WINDOW_MINUTES}::int)
      ), cut AS (
        SELECT
          (SELECT "createdAt" FROM recent WHERE "ip" = ${source} ORDER BY "createdAt" DESC OFFSET ${MAX_FAILURES - 1}::int LIMIT 1) AS pair,
          (SELECT "createdAt" FROM recent ORDER BY "createdAt" DESC OFFSET ${MAX_FAILURES_PER_EMAIL - 1}::int LIMIT 1) AS email
      )
      SELECT
        COALESCE(ceil(extract(epoch FROM pair + make_interval(mins => ${WINDOW_MINUTES}::int) - (clock_timestamp() AT TIME ZONE 'utc'))), 0)::float8 AS pair,
        COALESCE(ceil(extract(epoch FROM email + make_interval(mins => ${WINDOW_MINUTES}::int) - (clock_timestamp() AT TIME ZONE 'utc'))), 0)::float8 AS email
      FROM cut`;
    const seconds = Math.max(Number(wait!.pair), Number(wait!.email));
    if (seconds > 0) return { ok: false, retryAfterSeconds: Math.max(1, seconds) };
    const [row] = await tx.$queryRaw<{ id: bigint }[]>`
      INSERT INTO "sign_in_failure" ("email", "ip", "createdAt") VALUES (${email}, ${source}, clock_timestamp() AT TIME ZONE 'utc') RETURNING "id"`;
    return { ok: true, id: row!.id, email, source };
  });
}

/**
 * Ends a reserved attempt: `"wrong"` keeps it as a failure (and purges failures older than a
 * day), `"right"` forgets it and the pair's earlier failures, `"void"` (the password was not
 * what failed) forgets it alone.
 */
export async function settleAttempt(attempt: Extract<TAttempt, { ok: true }>, outcome: "wrong" | "right" | "void"): Promise<void> {
  if (outcome === "wrong") {
    await db.signInFailure.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - 24 * 3600_000) } } });
  } else if (outcome === "right") {
    await db.signInFailure.deleteMany({ where: { email: attempt.email, ip: attempt.source, id: { lte: attempt.id } } });
  } else {
    await db.signInFailure.deleteMany({ where: { id: attempt.id } });
  }
}
