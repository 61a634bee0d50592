/**
 * Checks an email and password for the Credentials provider (lib/auth/next-auth.ts).
 * Returns the user, or why not: `invalid` (one answer for an unknown email and a wrong
 * password, computed in about the same time) or `throttled` (too many recent failures of
 * this email from this address, lib/auth/throttle.ts).
 */
import "server-only";
import { db } from "@/lib/db";
import { verifyAgainstDummy, verifyPassword } from "@/lib/users/password";
import { clearFailures, recordFailure, throttledForSeconds } from "@/lib/auth/throttle";

export type TCredentialsCheck =
  | { ok: true; user: { id: string; email: string; name: string; sessionVersion: number } }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/** Emails are compared lower-cased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function checkCredentials(input: { email: string; password: string; ip: string }): Promise<TCredentialsCheck> {
  const email = normalizeEmail(input.email);
  const wait = await throttledForSeconds(email, input.ip);
  if (wait > 0) return { ok: false, reason: "throttled", retryAfterSeconds: wait };
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, name: true, sessionVersion: true, passwordHash: true } });
  const ok = user?.passwordHash ? await verifyPassword(input.password, user.passwordHash) : await verifyAgainstDummy(input.password);
  if (!ok || !user) {
    await recordFailure(email, input.ip);
    return { ok: false, reason: "invalid" };
  }
  await clearFailures(email, input.ip);
  return { ok: true, user: { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion } };
}
