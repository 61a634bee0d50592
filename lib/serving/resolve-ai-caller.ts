/**
 * Who an AI client's API key is, and which Flow APIs it may use as tools, for the MCP door
 * (`/public/mcp/{organization}/{environment}` with the key in `X-Api-Key` or
 * `Authorization: Bearer`; design.md "MCP").
 *
 * The tools of a key: every Flow API published in the key's environment whose "Available to
 * AI assistants" switch is on, whose workspace's plan includes AI access, that the key's
 * consumer is granted, and whose served flow version has no input/parameter name collision
 * (lib/flows/ai-tool-collisions.ts). Ordered by slug, so the list is stable.
 *
 * Errors (AppError): `unauthorized` for a missing, malformed, unknown, revoked or expired
 * key, or one of another environment (one answer for all, as over HTTP); `forbidden` when no
 * workspace publishing into this environment (or, while it serves nothing, no workspace of
 * the organization) has a plan with AI access.
 *
 * Resolutions are cached per process with the HTTP door's caller cache
 * (lib/keys/caller-cache.ts), so a switch flip, a grant, a revoked key or a new release
 * (all send NOTIFY `auth_changed`) takes effect on the next request.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { aiToolCollisions } from "@/lib/flows/ai-tool-collisions";
import { ZFlowVersion } from "@/lib/flows/definition";
import { cachedCaller } from "@/lib/keys/caller-cache";
import { findEnvironmentKey, keyHash } from "@/lib/keys/resolve-key-caller";
import type { TApiPath } from "@/lib/runs/scope";
import { findServedApis, servedApiCall, type TServedApiCall } from "@/lib/keys/served-apis";

/** One Flow API an AI client may call as a tool. */
export type TAiApi = TServedApiCall;

export interface TAiCaller {
  keyId: string;
  consumerId: string;
  environmentId: string;
  organization: string;
  environment: string;
  apis: TAiApi[];
}

/** Resolves the key and its tools (see module doc). */
export async function resolveAiCaller(path: Pick<TApiPath, "organization" | "environment">, apiKey: string | null): Promise<TAiCaller> {
  const hash = keyHash(apiKey, "Send your API key in the X-Api-Key header or as Authorization: Bearer <key>.");
  return cachedCaller(`ai|${hash}|${path.organization}|${path.environment}`, async () => {
    const key = await findEnvironmentKey(path, hash);
    const consumer = {
      keyId: key.id,
      consumerId: key.consumerId,
      environmentId: key.consumer.environmentId,
      organizationId: key.consumer.environment.organizationId,
    };
    return { keyExpiresAt: key.expiresAt, value: await resolveAiCallerOfConsumer(path, consumer) };
  });
}

/**
 * The caller acting as a consumer an OAuth consent chose (lib/oauth/verify-access-token.ts),
 * exactly as one of its keys would: the same tools, plan check and errors. `keyId` stands
 * for the key (the consent's id) in rate limits and "last used". Not cached: the token was
 * just checked against the database.
 */
export async function resolveAiCallerOfConsumer(
  path: Pick<TApiPath, "organization" | "environment">,
  c: { keyId: string; consumerId: string; environmentId: string; organizationId: string },
): Promise<TAiCaller> {
  const { planAllows, apis } = await aiApisOfConsumer({ id: c.consumerId, environmentId: c.environmentId, organizationId: c.organizationId }, path);
  if (!planAllows) {
    throw new AppError(
      "forbidden",
      "AI access (MCP) is not included in the plan of this environment's workspace. Upgrade to a plan with AI access, or use the HTTP API.",
    );
  }
  return {
    keyId: c.keyId,
    consumerId: c.consumerId,
    environmentId: c.environmentId,
    organization: path.organization,
    environment: path.environment,
    apis,
  };
}

/**
 * The Flow APIs a consumer's keys see as MCP tools (see module doc), and whether any
 * workspace behind the environment has a plan with AI access (`planAllows`; when false the
 * MCP door refuses the key with 403).
 */
export async function aiApisOfConsumer(
  consumer: { id: string; environmentId: string; organizationId: string },
  path: Pick<TApiPath, "organization" | "environment">,
): Promise<{ planAllows: boolean; apis: TAiApi[] }> {
  const { planAllows, apis } = await aiApisOfConsumers(consumer, [consumer.id], path);
  return { planAllows, apis: apis.get(consumer.id)! };
}

/**
 * `aiApisOfConsumer` for several consumers of one environment at once, in three queries
 * whatever their number (the served APIs, the plan, their grants): what the consent page
 * lists for each consumer the person may connect a client as, and the console's "Connect an
 * AI client" view for each consumer. One query pair per consumer, all at once, filled the
 * database pool on an environment with a hundred consumers.
 *
 * @returns `planAllows` as `aiApisOfConsumer`'s, and each consumer's tools by its id (every id
 *   asked for is there, with an empty list when it may call none).
 */
export async function aiApisOfConsumers(
  environment: { environmentId: string; organizationId: string },
  consumerIds: readonly string[],
  path: Pick<TApiPath, "organization" | "environment">,
): Promise<{ planAllows: boolean; apis: Map<string, TAiApi[]> }> {
  const served = await findServedApis({ environmentId: environment.environmentId });
  const planAllows = served.length
    ? served.some((s) => s.flowApi.workspace.plan.aiAccess)
    : (await db.workspace.count({ where: { organizationId: environment.organizationId, plan: { aiAccess: true } } })) > 0;
  const grants = await db.accessGrant.findMany({ where: { consumerId: { in: [...consumerIds] } }, select: { consumerId: true, flowApiId: true } });
  const granted = new Set(grants.map((g) => `${g.consumerId}\u0000${g.flowApiId}`));
  const grantedApis = new Set(grants.map((g) => g.flowApiId));
  // a served API's flow is parsed once, whoever may call it, and only when someone may
  const usable = served.flatMap((s) => {
    if (!s.aiAccess || !s.flowApi.workspace.plan.aiAccess || !grantedApis.has(s.flowApiId)) return [];
    const flow = ZFlowVersion.parse(s.release.flowVersion.definition);
    return aiToolCollisions(flow).length > 0 ? [] : [{ s, flow }];
  });
  const apis = new Map<string, TAiApi[]>();
  for (const id of consumerIds) {
    const consumer = { id, environmentId: environment.environmentId };
    apis.set(
      id,
      usable.filter(({ s }) => granted.has(`${id}\u0000${s.flowApiId}`)).map(({ s, flow }) => servedApiCall(s, path, consumer, flow)),
    );
  }
  return { planAllows, apis };
}
