/**
 * Revokes a key: the next call with it, in any web process, is answered 401 (the update
 * fires the `auth_changed` NOTIFY; lib/keys/caller-cache.ts). Revoking a revoked key changes
 * nothing. Errors: `not_found`.
 */
import "server-only";
import { db } from "@/lib/db";
import { getApiKeyOrThrow } from "@/lib/keys/get-api-key-or-throw";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export async function revokeApiKey(scope: TEnvironmentRef, keyId: string): Promise<{ revokedAt: Date }> {
  const key = await getApiKeyOrThrow(scope, keyId);
  if (key.revokedAt) return { revokedAt: key.revokedAt };
  const updated = await db.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
  return { revokedAt: updated.revokedAt! };
}
