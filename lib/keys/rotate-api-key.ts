/**
 * Rotates a key: a new key for the same consumer (same name, same expiry if it had one)
 * and the old key expires `overlapMinutes` from now (or keeps its earlier expiry), so both
 * work during the overlap and callers can switch without an outage; then the old key is
 * refused with 401 like any expired key. `overlapMinutes: 0` stops the old key at once.
 * One transaction: either both changes happen or neither.
 *
 * Errors: `not_found`; `conflict` for a revoked or expired key (nothing to hand over);
 * `validation_failed` at `/overlapMinutes`.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { parseField } from "@/lib/errors/zod-issues";
import { createApiKey, type TCreatedKey } from "@/lib/keys/create-api-key";
import { getApiKeyOrThrow } from "@/lib/keys/get-api-key-or-throw";
import { ZOverlapMinutes } from "@/lib/keys/key-input";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export async function rotateApiKey(
  scope: TEnvironmentRef,
  keyId: string,
  input: { overlapMinutes: number },
): Promise<{ newKey: TCreatedKey; oldKeyExpiresAt: Date }> {
  const overlap = parseField(ZOverlapMinutes, input.overlapMinutes, "/overlapMinutes", "out_of_range", "The overlap must be 0 minutes to 30 days.");
  const old = await getApiKeyOrThrow(scope, keyId);
  const now = Date.now();
  if (old.revokedAt || (old.expiresAt && old.expiresAt.getTime() <= now)) {
    throw new AppError("conflict", "This key is revoked or expired; create a new key instead of rotating it.");
  }
  const overlapEnd = new Date(now + overlap * 60_000);
  const oldKeyExpiresAt = old.expiresAt && old.expiresAt < overlapEnd ? old.expiresAt : overlapEnd;
  return db.$transaction(async (tx) => {
    const newKey = await createApiKey(scope, { consumerId: old.consumerId, name: old.name, expiresAt: old.expiresAt }, tx);
    await tx.apiKey.update({ where: { id: old.id }, data: { expiresAt: oldKeyExpiresAt } });
    return { newKey, oldKeyExpiresAt };
  });
}
