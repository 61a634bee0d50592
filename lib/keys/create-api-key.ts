/**
 * Creates an API key for a consumer of the environment: a fresh secret (lib/keys/api-key.ts),
 * of which only the SHA-256 and the visible prefix are stored. Returns the secret; this is
 * the only time anybody sees it (design.md "Keys").
 *
 * Errors: `not_found` (consumer not in this environment), `validation_failed` at `/name`
 * (too long) or `/expiresAt` (not in the future).
 */
import "server-only";
import { db, type TTx } from "@/lib/db";
import { validationError } from "@/lib/errors";
import { parseField } from "@/lib/errors/zod-issues";
import { generateApiKey, hashApiKey, keyPrefix } from "@/lib/keys/api-key";
import { ZKeyName } from "@/lib/keys/key-input";
import { getConsumerOrThrow } from "@/lib/consumers/get-consumer-or-throw";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export interface TCreatedKey {
  id: string;
  name: string;
  prefix: string;
  expiresAt: Date | null;
  /** The secret: shown once, never stored. */
  secret: string;
}

export async function createApiKey(
  scope: TEnvironmentRef,
  input: { consumerId: string; name?: string; expiresAt?: Date | null },
  tx: TTx | typeof db = db,
): Promise<TCreatedKey> {
  const name = parseField(ZKeyName, input.name ?? "", "/name", "too_long");
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
    throw validationError([{ field: "/expiresAt", code: "in_the_past", message: "The expiry must be in the future." }], "The expiry must be in the future.");
  }
  await getConsumerOrThrow(scope, input.consumerId);
  const secret = generateApiKey();
  const key = await tx.apiKey.create({
    data: { consumerId: input.consumerId, name: name || "Key", prefix: keyPrefix(secret), hash: hashApiKey(secret), expiresAt: input.expiresAt ?? null },
  });
  return { id: key.id, name: key.name, prefix: key.prefix, expiresAt: key.expiresAt, secret };
}
