/**
 * The consumers of an environment for the console, by name: each with its keys (newest
 * first; prefix, name, expiry, revocation, last use, never the hash) and the ids of the Flow
 * APIs it is granted.
 */
import "server-only";
import { db } from "@/lib/db";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export interface TConsoleKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  state: TKeyState;
}

export type TKeyState = "active" | "expiring" | "expired" | "revoked";

export interface TConsoleConsumer {
  id: string;
  slug: string;
  name: string;
  createdAt: Date;
  keys: TConsoleKey[];
  grantedApiIds: string[];
}

export async function listConsumers(scope: TEnvironmentRef): Promise<TConsoleConsumer[]> {
  const rows = await db.consumer.findMany({
    where: { environmentId: scope.environmentId },
    orderBy: [{ name: "asc" }, { slug: "asc" }],
    include: {
      keys: {
        orderBy: { createdAt: "desc" },
        select: { id: true, name: true, prefix: true, createdAt: true, expiresAt: true, revokedAt: true, lastUsedAt: true },
      },
      grants: { select: { flowApiId: true } },
    },
  });
  const now = new Date();
  return rows.map((c) => ({
    id: c.id,
    slug: c.slug,
    name: c.name,
    createdAt: c.createdAt,
    keys: c.keys.map((k) => ({ ...k, state: keyState(k, now) })),
    grantedApiIds: c.grants.map((g) => g.flowApiId),
  }));
}

/** The state of a key at `now`: active, expiring (an expiry is set, e.g. after a rotation), expired or revoked. */
function keyState(key: Pick<TConsoleKey, "expiresAt" | "revokedAt">, now: Date): TKeyState {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt <= now) return "expired";
  if (key.expiresAt) return "expiring";
  return "active";
}
