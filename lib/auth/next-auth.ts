/**
 * next-auth v5 for designers and console admins: the Credentials provider (email and
 * password, checked by lib/auth/credentials.ts) with JWT sessions (Credentials cannot use
 * database sessions). The token carries the user id (`sub`) and the user's
 * `sessionVersion` at sign-in; lib/auth/session.ts compares that version with the database
 * on every request, which is what makes sign-out-everywhere and a password change revoke
 * tokens that cannot be deleted.
 *
 * `trustHost`: the base URL of next-auth's own endpoints follows the request (`Host`,
 * `X-Forwarded-*`) unless `AUTH_URL` is set, so redirects never point at `localhost` when
 * the app is reached under another name. `AUTH_SECRET`: lib/auth/secret.ts.
 *
 * A refused sign-in throws `CredentialsSignin` with `code` `invalid` or `throttled:<seconds>`.
 */
import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { checkCredentials } from "@/lib/auth/credentials";
import { authSecret } from "@/lib/auth/secret";

/** Sessions last a working week unless revoked; the token is refreshed once a day of use. */
const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

const ZCredentials = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) });

class InvalidCredentials extends CredentialsSignin {
  code = "invalid";
}

class Throttled extends CredentialsSignin {
  constructor(seconds: number) {
    super();
    this.code = `throttled:${seconds}`;
  }
}

/** The client address of a sign-in request: the first `X-Forwarded-For` hop, else `X-Real-IP`. */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || headers.get("x-real-ip") || "unknown";
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: authSecret(),
  trustHost: true,
  // A wrong password is an expected answer, not a server error worth a stack trace.
  logger: {
    error(error: Error) {
      if (error instanceof CredentialsSignin || (error as { type?: string }).type === "CredentialsSignin") return;
      console.error("[auth]", error);
    },
  },
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 24 * 3600 },
  pages: { signIn: "/sign-in", error: "/sign-in" },
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(raw, request) {
        const parsed = ZCredentials.safeParse(raw);
        if (!parsed.success) throw new InvalidCredentials();
        const result = await checkCredentials({ ...parsed.data, ip: clientAddress(request.headers) });
        if (!result.ok) throw result.reason === "throttled" ? new Throttled(result.retryAfterSeconds) : new InvalidCredentials();
        return { id: result.user.id, email: result.user.email, name: result.user.name, sessionVersion: result.user.sessionVersion };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 0;
      }
      return token;
    },
    session({ session, token }) {
      return { ...session, userId: token.sub, sessionVersion: token.sv };
    },
  },
}));
