/**
 * The demo users of the demo organization (issue 9), seeded idempotently at every start:
 * a designer (design tool) and an admin (design tool and serving console).
 *
 * Credentials: `forced` (from DEMO_DESIGNER_EMAIL / DEMO_DESIGNER_PASSWORD and
 * DEMO_ADMIN_EMAIL / DEMO_ADMIN_PASSWORD) win and are made valid, also over an earlier
 * password. Otherwise `designer@demo.local` and `admin@demo.local` get a generated password
 * once, remembered in `usersFile` (`.data/demo-users.json`, git-ignored, mode 0600) so later
 * starts can print it again. A password changed since (account page) is left alone and not
 * printed (`password: null`).
 */
import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { db } from "@/lib/db";
import { hashPassword, verifyPassword } from "@/lib/users/password";

export type TDemoRole = "designer" | "admin";

export interface TDemoUser {
  role: TDemoRole;
  email: string;
  /** The password to print; null when the user changed it (it is not stored anywhere readable). */
  password: string | null;
}

export type TForcedDemoUsers = Partial<Record<TDemoRole, { email?: string; password?: string }>>;

const DEFAULTS: Record<TDemoRole, { email: string; name: string }> = {
  designer: { email: "designer@demo.local", name: "Demo Designer" },
  admin: { email: "admin@demo.local", name: "Demo Admin" },
};

/** The secrets remembered in `file` (a JSON object of strings; empty when there is none). */
export function readSecrets(file: string): Record<string, string> {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>;
  } catch {
    return {};
  }
}

/** Remembers `secrets` in `file` (git-ignored, local only), readable by its owner only. */
export function writeSecrets(file: string, secrets: Record<string, string>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2) + "\n", { mode: 0o600 });
}

/** A readable generated password: 18 base62-ish characters (about 107 bits). */
function generatePassword(): string {
  return randomBytes(18).toString("base64url").replace(/[-_]/g, "x").slice(0, 18);
}

export async function seedDemoUsers(opts: { organizationId: string; usersFile: string; forced?: TForcedDemoUsers }): Promise<TDemoUser[]> {
  const remembered = readSecrets(opts.usersFile);
  const out: TDemoUser[] = [];
  let changed = false;
  for (const role of ["designer", "admin"] as const) {
    const forced = opts.forced?.[role];
    const email = (forced?.email || DEFAULTS[role].email).trim().toLowerCase();
    let user = await db.user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
    const setPassword = async (password: string) => {
      const passwordHash = await hashPassword(password);
      const create = { email, name: DEFAULTS[role].name, passwordHash };
      return db.user.upsert({ where: { email }, create, update: { passwordHash }, select: { id: true, passwordHash: true } });
    };
    let password: string | null;
    if (forced?.password) {
      password = forced.password;
      if (!user?.passwordHash || !(await verifyPassword(password, user.passwordHash))) user = await setPassword(password);
    } else if (!user || !user.passwordHash) {
      password = generatePassword();
      user = await setPassword(password);
      remembered[email] = password;
      changed = true;
    } else {
      const saved = remembered[email];
      password = saved && (await verifyPassword(saved, user.passwordHash)) ? saved : null;
    }
    await db.membership.upsert({
      where: { userId_organizationId: { userId: user.id, organizationId: opts.organizationId } },
      create: { userId: user.id, organizationId: opts.organizationId, role },
      update: { role },
    });
    out.push({ role, email, password });
  }
  if (changed) writeSecrets(opts.usersFile, remembered);
  return out;
}

/** The forced demo credentials of the environment (`DEMO_DESIGNER_EMAIL`, `DEMO_DESIGNER_PASSWORD`, `DEMO_ADMIN_EMAIL`, `DEMO_ADMIN_PASSWORD`). */
export function forcedDemoUsersFromEnv(env: NodeJS.ProcessEnv): TForcedDemoUsers {
  return {
    designer: { email: env.DEMO_DESIGNER_EMAIL || undefined, password: env.DEMO_DESIGNER_PASSWORD || undefined },
    admin: { email: env.DEMO_ADMIN_EMAIL || undefined, password: env.DEMO_ADMIN_PASSWORD || undefined },
  };
}
