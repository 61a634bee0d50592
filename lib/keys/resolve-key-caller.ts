/**
 * Authenticates an API key for one published API and resolves what it may run:
 * `{organization, environment, api}` plus the key's secret, as the HTTP door
 * (`/public/api/...` with `X-Api-Key`) receives them.
 *
 * Order of checks (design.md "Keys"): missing key 401; unknown, revoked or expired key, or a
 * key of another environment 401; API not published in this environment 404; consumer
 * without a grant 403. All as `AppError`.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { hashApiKey, KEY_PATTERN } from "@/lib/keys/api-key";
import { cachedCaller, cachedCallerDeferred, type TDeferredCaller } from "@/lib/keys/caller-cache";
import { findServedApis, servedApiCall, type TKeyCaller } from "@/lib/keys/served-apis";
import type { TApiPath } from "@/lib/runs/scope";

/** The SHA-256 hash of a well-formed key; AppError `unauthorized` otherwise (`missing` the detail when none was sent). Shared by the HTTP and MCP doors. */
export function keyHash(apiKey: string | null, missing = "Send your API key in the X-Api-Key header."): string {
  if (!apiKey) throw new AppError("unauthorized", missing);
  if (!KEY_PATTERN.test(apiKey)) throw invalidKey();
  return hashApiKey(apiKey);
}

/** The key's hash and the cache key of (key, API path). */
function keyOf(path: TApiPath, apiKey: string | null): { hash: string; cacheKey: string } {
  const hash = keyHash(apiKey);
  return { hash, cacheKey: `${hash}|${path.organization}|${path.environment}|${path.api}` };
}

/**
 * Resolves and authorises a caller; throws AppError unauthorized/not_found/forbidden.
 * Successful resolutions are cached per process and invalidated at once by any change to
 * keys, grants, releases or plans (lib/keys/caller-cache.ts); refusals are never cached.
 */
export async function resolveKeyCaller(path: TApiPath, apiKey: string | null): Promise<TKeyCaller> {
  const { hash, cacheKey } = keyOf(path, apiKey);
  return cachedCaller(cacheKey, () => loadCaller(path, hash));
}

/**
 * `resolveKeyCaller` for the HTTP door, whose cache hits cost no query: the door compares the
 * returned `authVersion` with the one its rate-limit statement reads and, when they differ,
 * resolves again with `resolveKeyCaller` (lib/keys/caller-cache.ts). Same errors.
 */
export async function resolveKeyCallerDeferred(path: TApiPath, apiKey: string | null): Promise<TDeferredCaller<TKeyCaller>> {
  const { hash, cacheKey } = keyOf(path, apiKey);
  return cachedCallerDeferred(cacheKey, () => loadCaller(path, hash));
}

/** The one 401 for a key that is unknown, revoked, expired or of another environment (all alike, so none is revealed). */
export function invalidKey(): AppError {
  return new AppError("unauthorized", "The API key is not valid for this environment (unknown, revoked or expired).");
}

/**
 * The key with this SHA-256 `hash`, when it is live (not revoked, not expired) and belongs to a
 * consumer of `path`'s environment; throws `invalidKey()` otherwise. Shared by the HTTP and MCP doors.
 */
export async function findEnvironmentKey(path: Pick<TApiPath, "organization" | "environment">, hash: string) {
  const key = await db.apiKey.findUnique({
    where: { hash },
    include: { consumer: { include: { environment: { include: { organization: true } } } } },
  });
  const now = new Date();
  if (
    !key ||
    key.revokedAt ||
    (key.expiresAt && key.expiresAt <= now) ||
    key.consumer.environment.slug !== path.environment ||
    key.consumer.environment.organization.slug !== path.organization
  ) {
    throw invalidKey();
  }
  return key;
}

async function loadCaller(path: TApiPath, hash: string): Promise<{ value: TKeyCaller; keyExpiresAt: Date | null }> {
  const key = await findEnvironmentKey(path, hash);
  const environmentId = key.consumer.environmentId;
  const [served] = await findServedApis({ environmentId, flowApi: { slug: path.api, organizationId: key.consumer.environment.organizationId } });
  if (!served) throw new AppError("not_found", `No API "${path.api}" is published in environment "${path.environment}".`);
  const grant = await db.accessGrant.findUnique({
    where: { consumerId_flowApiId: { consumerId: key.consumerId, flowApiId: served.flowApiId } },
  });
  if (!grant) throw new AppError("forbidden", `Your key's consumer has no access to API "${path.api}".`);
  return { keyExpiresAt: key.expiresAt, value: { ...servedApiCall(served, path, { id: key.consumerId, environmentId }), keyId: key.id } };
}
