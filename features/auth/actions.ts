"use server";
/**
 * Sign-in as a server action through the action client: next-auth's Credentials provider
 * checks the password and the throttle (lib/auth/credentials.ts); a refusal comes back as
 * one message that never says whether the email exists. On success the browser is
 * redirected to `callbackUrl` (same-origin paths only) or `/design`.
 */
import { redirect } from "next/navigation";
import { z } from "zod";
import { CredentialsSignin } from "next-auth";
import { actionClient } from "@/lib/auth/action-client";
import { signIn } from "@/lib/auth/next-auth";
import { AppError } from "@/lib/errors";
import { safeCallbackPath } from "@/features/shell/routes";
import { WRONG_CREDENTIALS, ZSignIn } from "@/features/auth/schemas";

export const signInAction = actionClient
  .metadata({ name: "sign-in" })
  .inputSchema(ZSignIn.extend({ callbackUrl: z.string().max(2000).optional() }))
  .action(async ({ parsedInput }) => {
    try {
      await signIn("credentials", { email: parsedInput.email, password: parsedInput.password, redirect: false });
    } catch (err) {
      if (err instanceof CredentialsSignin || (err as { type?: string }).type === "CredentialsSignin") {
        const code = (err as CredentialsSignin).code ?? "";
        if (code.startsWith("throttled:")) {
          const seconds = Number(code.slice("throttled:".length)) || 60;
          const minutes = Math.ceil(seconds / 60);
          throw new AppError("rate_limited", `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
            retryAfterSeconds: seconds,
          });
        }
        throw new AppError("unauthorized", WRONG_CREDENTIALS);
      }
      throw err;
    }
    redirect(safeCallbackPath(parsedInput.callbackUrl));
  });
