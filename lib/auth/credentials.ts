/**
 * Password checks of the front door, each throttled (lib/auth/throttle.ts: the attempt is
 * reserved before the password is checked, so parallel guesses cannot outrun the limit):
 * - `checkCredentials`, for the Credentials provider (lib/auth/next-auth.ts): the user, or why
 *   not: `invalid` (one answer for an unknown email and a wrong password, computed in about
 *   the same time) or `throttled` (too many recent failures of this email from this address,
 *   or of this email from anywhere);
 * - `changeOwnPassword`, for the account page's action: the password change of
 *   lib/users/account.ts, its current password counted like a sign-in guess.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { changePassword } from "@/lib/users/account";
import { verifyAgainstDummy, verifyPassword } from "@/lib/users/password";
import { PASSWORD_CHANGE_SOURCE, reserveAttempt, settleAttempt } from "@/lib/auth/throttle";

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
  const attempt = await reserveAttempt(email, input.ip);
  if (!attempt.ok) return { ok: false, reason: "throttled", retryAfterSeconds: attempt.retryAfterSeconds };
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, name: true, sessionVersion: true, passwordHash: true } });
  const ok = user?.passwordHash ? await verifyPassword(input.password, user.passwordHash) : await verifyAgainstDummy(input.password);
  if (!ok || !user) {
    await settleAttempt(attempt, "wrong");
    return { ok: false, reason: "invalid" };
  }
  await settleAttempt(attempt, "right");
  return { ok: true, user: { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion } };
}

/** True for the error lib/users/account.ts throws for a wrong current password. */
function isWrongCurrentPassword(err: unknown): boolean {
  return err instanceof AppError && (err.errors ?? []).some((e) => e.field === "/currentPassword" && e.code === "wrong_password");
}

/**
 * Changes a signed-in user's password (lib/users/account.ts `changePassword`) after reserving
 * a password check for the account's email from `PASSWORD_CHANGE_SOURCE`.
 * @throws AppError `rate_limited` (with `retryAfterSeconds`) when too many wrong passwords were
 *   tried for this account; otherwise what `changePassword` throws.
 */
export async function changeOwnPassword(user: { id: string; email: string }, currentPassword: string, newPassword: string): Promise<void> {
  const attempt = await reserveAttempt(normalizeEmail(user.email), PASSWORD_CHANGE_SOURCE);
  if (!attempt.ok) {
    throw new AppError("rate_limited", `Too many wrong passwords were tried for this account; try again in ${Math.ceil(attempt.retryAfterSeconds / 60)} min.`, {
      retryAfterSeconds: attempt.retryAfterSeconds,
    });
  }
  try {
    await changePassword(user.id, currentPassword, newPassword);
  } catch (err) {
    await settleAttempt(attempt, isWrongCurrentPassword(err) ? "wrong" : "void");
    throw err;
  }
  await settleAttempt(attempt, "right");
}
