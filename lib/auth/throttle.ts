/**
 * Throttling of failed sign-ins, per (email, client address), in Postgres so every web
 * process shares it: after `MAX_FAILURES` failures within `WINDOW_MINUTES`, further attempts
 * are refused until the oldest of them leaves the window, whether the password is right or
 * not. A successful sign-in clears the pair's failures. Unknown emails are counted like
 * known ones, so the answers never reveal which accounts exist.
 */
import "server-only";
import { db } from "@/lib/db";

export const MAX_FAILURES = 5;
export const WINDOW_MINUTES = 15;

/** Seconds until the pair may try again, or 0 when it is not throttled. */
export async function throttledForSeconds(email: string, ip: string): Promise<number> {
  const since = new Date(Date.now() - WINDOW_MINUTES * 60_000);
  const recent = await db.signInFailure.findMany({
    where: { email, ip, createdAt: { gt: since } },
    orderBy: { createdAt: "desc" },
    take: MAX_FAILURES,
    select: { createdAt: true },
  });
  if (recent.length < MAX_FAILURES) return 0;
  const oldest = recent[recent.length - 1].createdAt.getTime();
  return Math.max(1, Math.ceil((oldest + WINDOW_MINUTES * 60_000 - Date.now()) / 1000));
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
