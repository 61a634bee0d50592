/**
 * A signed-in user's own account: change the password, sign out everywhere. Both bump
 * `sessionVersion`, which revokes every session token issued before (lib/auth/session.ts);
 * a password change therefore signs out every other browser too.
 */
import "server-only";
import { db } from "@/lib/db";
import { validationError } from "@/lib/errors";
import { MIN_PASSWORD_LENGTH, hashPassword, verifyPassword } from "@/lib/users/password";

/** Revokes all of the user's sessions. Returns the new session version. */
export async function signOutEverywhere(userId: string): Promise<number> {
  const user = await db.user.update({ where: { id: userId }, data: { sessionVersion: { increment: 1 } }, select: { sessionVersion: true } });
  return user.sessionVersion;
}

/**
 * Sets a new password after checking the current one.
 * @throws AppError `validation_failed` naming `/currentPassword` (wrong) or `/newPassword` (too short, unchanged).
 */
export async function changePassword(userId: string, currentPassword: string, newPassword: string): Promise<void> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
  if (!user.passwordHash || !(await verifyPassword(currentPassword, user.passwordHash))) {
    throw validationError([{ field: "/currentPassword", code: "wrong_password", message: "The current password is wrong." }], "The current password is wrong.");
  }
  if (newPassword.length < MIN_PASSWORD_LENGTH) {
    throw validationError(
      [{ field: "/newPassword", code: "too_short", message: `Use at least ${MIN_PASSWORD_LENGTH} characters.` }],
      "The new password is too short.",
    );
  }
  if (newPassword === currentPassword) {
    throw validationError(
      [{ field: "/newPassword", code: "unchanged", message: "Choose a password different from the current one." }],
      "The new password is the current one.",
    );
  }
  await db.user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(newPassword), sessionVersion: { increment: 1 } } });
}
