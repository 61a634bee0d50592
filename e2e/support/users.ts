/**
 * Throwaway users for tests that change a user's state (sign out everywhere, change the
 * password, throttling), so the shared demo users' saved sessions stay valid. Written
 * straight into the test database (DATABASE_URL from scripts/test.ts), with the app's own
 * password hashing.
 */
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { hashPassword } from "@/lib/users/password";
import type { TRole } from "./env";

let pool: pg.Pool | undefined;

export function sql(): pg.Pool {
  pool ??= new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  return pool;
}

export interface TTestUser {
  id: string;
  email: string;
  password: string;
}

/** A new user with `role` in the demo organization. */
export async function createUser(role: TRole, label: string): Promise<TTestUser> {
  const id = randomUUID();
  const email = `e2e-${label}-${randomBytes(4).toString("hex")}@demo.local`;
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  await sql().query(`INSERT INTO app_user (id, email, name, "passwordHash") VALUES ($1, $2, $3, $4)`, [
    id,
    email,
    `E2E ${label}`,
    await hashPassword(password),
  ]);
  await sql().query(`INSERT INTO membership ("userId", "organizationId", role) SELECT $1, id, $2::"MemberRole" FROM organization WHERE slug = 'demo'`, [
    id,
    role,
  ]);
  return { id, email, password };
}

/** The user's current session version (bumped by sign-out-everywhere and password changes). */
export async function sessionVersion(userId: string): Promise<number> {
  const { rows } = await sql().query<{ sessionVersion: number }>(`SELECT "sessionVersion" FROM app_user WHERE id = $1`, [userId]);
  return rows[0]!.sessionVersion;
}
