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
import { ZFlowVersion } from "@/lib/flows/definition";
import { cachedCaller } from "@/lib/keys/caller-cache";
import { findEnvironmentKey, keyHash, type TKeyCaller } from "@/lib/keys/resolve-key-caller";
import type { TApiPath } from "@/lib/runs/scope";

export interface TOgcCaller {
  keyId: string;
  consumerId: string;
  environmentId: string;
  /** The granted, published APIs, by slug. */
  apis: (TKeyCaller & { name: string; description: string | null })[];
}

/** Resolves the key and its processes (see module doc). */
export async function resolveOgcCaller(path: Pick<TApiPath, "organization" | "environment">, apiKey: string | null): Promise<TOgcCaller> {
  const hash = keyHash(apiKey);
  return cachedCaller(`ogc|${hash}|${path.organization}|${path.environment}`, async () => {
    const key = await findEnvironmentKey(path, hash);
    const environmentId = key.consumer.environmentId;
    const granted = await db.accessGrant.findMany({ where: { consumerId: key.consumerId }, select: { flowApiId: true } });
    const served = await db.environmentApi.findMany({
      where: { environmentId, flowApiId: { in: granted.map((g) => g.flowApiId) }, flowApi: { organizationId: key.consumer.environment.organizationId } },
      include: { release: { include: { flowVersion: true } }, flowApi: { include: { workspace: { include: { plan: true } } } } },
    });
    served.sort((a, b) => (a.flowApi.slug < b.flowApi.slug ? -1 : a.flowApi.slug > b.flowApi.slug ? 1 : 0));
    return {
      keyExpiresAt: key.expiresAt,
      value: {
        keyId: key.id,
        consumerId: key.consumerId,
        environmentId,
        apis: served.map((s) => ({
          path: { organization: path.organization, environment: path.environment, api: s.flowApi.slug },
          scope: { kind: "key" as const, consumerId: key.consumerId, flowApiId: s.flowApiId, environmentId },
          target: {
            workspaceId: s.flowApi.workspaceId,
            flowApiId: s.flowApiId,
            flowVersionId: s.release.flowVersionId,
            flowVersionNumber: s.release.flowVersion.version,
            releaseId: s.releaseId,
            flow: ZFlowVersion.parse(s.release.flowVersion.definition),
          },
          keyId: key.id,
          plan: { rateLimitPerMinute: s.flowApi.workspace.plan.rateLimitPerMinute },
          name: s.flowApi.name,
          description: s.flowApi.description,
        })),
      },
    };
  });
}
