"use server";
/** Sign-out for the user menu (the account page also offers "sign out everywhere"). */
import { actionClient } from "@/lib/auth/action-client";
import { signOut } from "@/lib/auth/next-auth";

/** Ends this browser's session and goes to `/sign-in`. No session check: a stale session may always sign out. */
export const signOutAction = actionClient.metadata({ name: "sign-out" }).action(async () => {
  await signOut({ redirectTo: "/sign-in" });
});
