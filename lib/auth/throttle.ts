/**
 * Throttling of failed sign-ins, in Postgres so every web process shares it:
 * - per (email, client address): after `MAX_FAILURES` failures within `WINDOW_MINUTES`,
 *   further attempts are refused until the oldest of them leaves the window, whether the
 *   password is right or not;
 * - per email from any address: `MAX_FAILURES_PER_EMAIL` in the same window, so rotating
 *   addresses (or a forged `X-Forwarded-For`) does not buy unlimited guesses.
 * A successful sign-in clears the pair's failures. Unknown emails are counted like known
 * ones, so the answers never reveal which accounts exist.
 */
import "server-only";
import { db } from "@/lib/db";

export const MAX_FAILURES = 5;
export const MAX_FAILURES_PER_EMAIL = 20;
export const WINDOW_MINUTES = 15;

/** Seconds until the `limit`-th most recent failure matching `where` leaves the window; 0 when fewer. */
async function waitFor(where: { email: string; ip?: string }, limit: number): Promise<number> {
  const since = new Date(Date.now() - WINDOW_MINUTES * 60_000);
  const recent = await db.signInFailure.findMany({
    where: { ...where, createdAt: { gt: since } },
    orderBy: { createdAt: "desc" },
    take: limit,
    select: { createdAt: true },
  });
  if (recent.length < limit) return 0;
  const oldest = recent[recent.length - 1].createdAt.getTime();
  return Math.max(1, Math.ceil((oldest + WINDOW_MINUTES * 60_000 - Date.now()) / 1000));
}

/** Seconds until the pair may try again, or 0 when it is not throttled. */
export async function throttledForSeconds(email: string, ip: string): Promise<number> {
  return Math.max(await waitFor({ email, ip }, MAX_FAILURES), await waitFor({ email }, MAX_FAILURES_PER_EMAIL));
}

/** Records one failure and purges failures older than a day. */
export async function recordFailure(email: string, ip: string): Promise<void> {
  await db.signInFailure.create({ data: { email, ip } });
  await db.signInFailure.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - 24 * 3600_000) } } });
}

/** Forgets the pair's failures (after a successful sign-in). */
export async function clearFailures(email: string, ip: string): Promise<void> {
  await db.signInFailure.deleteMany({ where: { email, ip } });
}
