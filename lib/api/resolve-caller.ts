/**
 * Authenticates a published call and resolves what it addresses:
 * `/public/api/{organization}/{environment}/{api}` plus the `X-Api-Key` header.
 *
 * Order of checks (design.md "Keys"): missing key 401; unknown, revoked or expired key, or a
 * key of another environment 401; API not published in this environment 404; consumer
 * without a grant 403.
 */
import "server-only";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/api/errors";
import { hashApiKey, KEY_PATTERN } from "@/lib/keys/api-key";
import { ZFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import { cachedCaller } from "@/lib/api/caller-cache";

export interface TCaller {
  organizationSlug: string;
  environmentSlug: string;
  apiSlug: string;
  environmentId: string;
  consumerId: string;
  keyId: string;
  flowApiId: string;
  workspaceId: string;
  releaseId: string;
  flowVersionId: string;
  flowVersionNumber: number;
  flow: TFlowVersion;
  plan: { rateLimitPerMinute: number };
}

export interface TCallerPath {
  organization: string;
  environment: string;
  api: string;
}

/**
 * Resolves and authorises a caller; throws ApiError 401/403/404. Successful resolutions
 * are cached per process and invalidated at once by any change to keys, grants, releases
 * or plans (lib/api/caller-cache.ts); refusals are never cached.
 */
export async function resolveCaller(path: TCallerPath, apiKey: string | null): Promise<TCaller> {
  if (!apiKey) throw new ApiError("unauthorized", "Send your API key in the X-Api-Key header.", { headers: { "www-authenticate": 'ApiKey header="X-Api-Key"' } });
  if (!KEY_PATTERN.test(apiKey)) throw invalidKey();
  const hash = hashApiKey(apiKey);
  return cachedCaller(`${hash}|${path.organization}|${path.environment}|${path.api}`, () => loadCaller(path, hash));
}

function invalidKey(): ApiError {
  return new ApiError("unauthorized", "The API key is not valid for this environment (unknown, revoked or expired).", {
    headers: { "www-authenticate": 'ApiKey header="X-Api-Key"' },
  });
}

async function loadCaller(path: TCallerPath, hash: string): Promise<{ value: TCaller; keyExpiresAt: Date | null }> {
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
  const environmentId = key.consumer.environmentId;

  const served = await db.environmentApi.findFirst({
    where: { environmentId, flowApi: { slug: path.api, organizationId: key.consumer.environment.organizationId } },
    include: {
      release: { include: { flowVersion: true } },
      flowApi: { include: { workspace: { include: { plan: true } } } },
    },
  });
  if (!served) throw new ApiError("not_found", `No API "${path.api}" is published in environment "${path.environment}".`);

  const grant = await db.accessGrant.findUnique({
    where: { consumerId_flowApiId: { consumerId: key.consumerId, flowApiId: served.flowApiId } },
  });
  if (!grant) throw new ApiError("forbidden", `Your key's consumer has no access to API "${path.api}".`);

  return {
    keyExpiresAt: key.expiresAt,
    value: {
      organizationSlug: path.organization,
      environmentSlug: path.environment,
      apiSlug: path.api,
      environmentId,
      consumerId: key.consumerId,
      keyId: key.id,
      flowApiId: served.flowApiId,
      workspaceId: served.flowApi.workspaceId,
      releaseId: served.releaseId,
      flowVersionId: served.release.flowVersionId,
      flowVersionNumber: served.release.flowVersion.version,
      flow: ZFlowVersion.parse(served.release.flowVersion.definition),
      plan: { rateLimitPerMinute: served.flowApi.workspace.plan.rateLimitPerMinute },
    },
  };
}
