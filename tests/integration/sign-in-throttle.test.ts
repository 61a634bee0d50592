/**
 * The password throttle holds against parallel guesses (issue 24 item 5), on the real
 * database: each attempt reserves its place before its password is checked, so however many
 * arrive at once, at most `MAX_FAILURES` passwords of one email and address are checked;
 * the current password of a password change is throttled the same way.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { changeOwnPassword, checkCredentials, type TCredentialsCheck } from "@/lib/auth/credentials";
import { MAX_FAILURES, WINDOW_MINUTES } from "@/lib/auth/throttle";
import { hashPassword, verifyPassword } from "@/lib/users/password";

const suffix = () => randomBytes(4).toString("hex");

async function newUser(password: string): Promise<{ id: string; email: string }> {
  const email = `throttle-${suffix()}@test.local`;
  const user = await db.user.create({ data: { email, name: "Throttle test", passwordHash: await hashPassword(password) } });
  return { id: user.id, email };
}

const checked = (r: TCredentialsCheck) => r.ok || r.reason === "invalid";

describe("sign-in throttle under parallel attempts", () => {
  it("checks only MAX_FAILURES of 50 parallel wrong passwords and refuses the rest with a wait inside the window", async () => {
    const { email } = await newUser(`right-${suffix()}`);
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}`;
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => checkCredentials({ email, password: `wrong-${i}`, ip })));
    expect(results.filter((r) => !r.ok && r.reason === "invalid").length).toBe(MAX_FAILURES);
    const refused = results.filter((r): r is Extract<TCredentialsCheck, { reason: "throttled" }> => !r.ok && r.reason === "throttled");
    expect(refused.length).toBe(50 - MAX_FAILURES);
    for (const r of refused) {
      expect(r.retryAfterSeconds).toBeGreaterThan(0);
      expect(r.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_MINUTES * 60);
    }
  });

  it("does not let the right password hidden at #25 of 40 parallel guesses through the limit", async () => {
    const password = `right-${suffix()}`;
    const { email } = await newUser(password);
    const ip = "198.51.100.7";
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 24 ? password : `guess-${i}`));
    const results = await Promise.all(guesses.map((p) => checkCredentials({ email, password: p, ip })));
    const signedIn = results.filter((r) => r.ok).length;
    expect(signedIn).toBeLessThanOrEqual(1);
    if (signedIn === 0) {
      // the right guess came after the limit: it was refused without being checked
      expect(results.filter(checked).length).toBe(MAX_FAILURES);
      expect(results[24]).toMatchObject({ ok: false, reason: "throttled" });
      // and the right password is still refused until the window has passed
      expect(await checkCredentials({ email, password, ip })).toMatchObject({ ok: false, reason: "throttled" });
    } else {
      // it happened to be among the first reserved: at most the limit were checked before it
      expect(results.filter((r) => !r.ok && r.reason === "invalid").length).toBeLessThanOrEqual(MAX_FAILURES);
    }
  });
});

describe("password change throttle", () => {
  it("checks at most MAX_FAILURES wrong current passwords, refuses the rest 429, then refuses even the right one", async () => {
    const password = `current-${suffix()}`;
    const user = await newUser(password);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        changeOwnPassword(user, `wrong-${i}`, `new-password-${i}`).then(
          () => "changed",
          (err: unknown) => (err instanceof AppError ? (err.code === "validation_failed" ? err.errors?.[0]?.code : err.code) : String(err)),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === "wrong_password").length).toBe(MAX_FAILURES);
    expect(outcomes.filter((o) => o === "rate_limited").length).toBe(20 - MAX_FAILURES);
    const refused = await changeOwnPassword(user, password, `new-password-${suffix()}`).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("rate_limited");
    expect((refused as AppError).retryAfterSeconds).toBeGreaterThan(0);
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
    expect(await verifyPassword(password, stored.passwordHash!)).toBe(true); // unchanged
  });

  it("does not count a change refused for its new password as a wrong guess, and changes it with the right one", async () => {
    const password = `current-${suffix()}`;
    const user = await newUser(password);
    for (let i = 0; i < MAX_FAILURES + 2; i++) {
      const err = await changeOwnPassword(user, password, "short").catch((e: unknown) => e);
      expect((err as AppError).errors?.[0]).toMatchObject({ field: "/newPassword", code: "too_short" });
    }
    const next = `next-${suffix()}`;
    await changeOwnPassword(user, password, next);
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
    expect(await verifyPassword(next, stored.passwordHash!)).toBe(true);
  });
});
