"use server";
/**
 * The account page's actions, through the authenticated action client. A password change
 * revokes every session (sessionVersion), so the action signs this browser in again with
 * the new password; "sign out everywhere" ends this session too and goes to `/sign-in`.
 */
import { authAction } from "@/lib/auth/action-client";
import { signOutEverywhere } from "@/lib/users/account";
import { changeOwnPassword } from "@/lib/auth/credentials";
import { signIn, signOut } from "@/lib/auth/next-auth";
import { ZChangePassword } from "@/features/account/schemas";

export const changePasswordAction = authAction
  .metadata({ name: "change-password" })
  .inputSchema(ZChangePassword)
  .action(async ({ parsedInput, ctx }) => {
    // Throttled like sign-in: the current password is a password guess (lib/auth/throttle.ts).
    await changeOwnPassword(ctx.user, parsedInput.currentPassword, parsedInput.newPassword);
    await signIn("credentials", { email: ctx.user.email, password: parsedInput.newPassword, redirect: false });
    return { ok: true };
  });

export const signOutEverywhereAction = authAction.metadata({ name: "sign-out-everywhere" }).action(async ({ ctx }) => {
  await signOutEverywhere(ctx.user.id);
  await signOut({ redirectTo: "/sign-in" });
});
