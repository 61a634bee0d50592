/**
 * Who an OGC API - Processes client's API key is, and which Flow APIs it may run as processes
 * (`/public/ogc/{organization}/{environment}`, the key in `X-Api-Key`): every API published in
 * the key's environment that its consumer is granted, each as the `TKeyCaller` the HTTP door
 * would resolve for it (lib/keys/resolve-key-caller.ts), ordered by slug.
 *
 * Errors (AppError): `unauthorized` for a missing, malformed, unknown, revoked or expired key,
 * or one of another environment (one answer for all, as over HTTP). Resolutions are cached
 * with the HTTP door's caller cache (lib/keys/caller-cache.ts): a grant, a revoked key or a new
 * release takes effect on the next request.
 */
import "server-only";
import { db } from "@/lib/db";
import { cachedCaller } from "@/lib/keys/caller-cache";
import { findEnvironmentKey, keyHash } from "@/lib/keys/resolve-key-caller";
import type { TApiPath } from "@/lib/runs/scope";
import { findServedApis, servedApiCall, type TKeyCaller, type TServedApiCall } from "@/lib/keys/served-apis";

export interface TOgcCaller {
  keyId: string;
  consumerId: string;
  environmentId: string;
  /** The granted, published APIs, by slug. */
  apis: (TKeyCaller & TServedApiCall)[];
}

/** Resolves the key and its processes (see module doc). */
export async function resolveOgcCaller(path: Pick<TApiPath, "organization" | "environment">, apiKey: string | null): Promise<TOgcCaller> {
  const hash = keyHash(apiKey);
  return cachedCaller(`ogc|${hash}|${path.organization}|${path.environment}`, async () => {
    const key = await findEnvironmentKey(path, hash);
    const environmentId = key.consumer.environmentId;
    const granted = await db.accessGrant.findMany({ where: { consumerId: key.consumerId }, select: { flowApiId: true } });
    const served = await findServedApis({
      environmentId,
      flowApiId: { in: granted.map((g) => g.flowApiId) },
      flowApi: { organizationId: key.consumer.environment.organizationId },
    });
    return {
      keyExpiresAt: key.expiresAt,
      value: {
        keyId: key.id,
        consumerId: key.consumerId,
        environmentId,
        apis: served.map((s) => ({ ...servedApiCall(s, path, { id: key.consumerId, environmentId }), keyId: key.id })),
      },
    };
  });
}
