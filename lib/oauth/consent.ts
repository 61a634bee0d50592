/**
 * Consent: after signing in (next-auth), a member of the organization whose environment an
 * OAuth client asked for (its RFC 8707 `resource`) chooses which consumer of that
 * environment the client acts as, seeing which APIs each consumer may call as tools. The
 * client's tokens then behave exactly like that consumer's API keys.
 *
 * - `consentRequest(issuer, uid, userId)`: what the page shows. AppError `not_found` when the
 *   authorization request is unknown or expired (it lives 30 minutes), `bad_request` when
 *   it names no MCP endpoint of this service, `forbidden` when the person is not a member of
 *   the organization.
 * - `decideConsent(issuer, uid, userId, decision)`: records the choice (an oidc-provider
 *   Grant for the MCP scope of that one resource, and the `oauth_authorization` row binding
 *   it to the consumer) or the refusal (`access_denied`), and returns where the browser goes
 *   on (the provider's resume URL, which checks its own cookie, so only the browser that
 *   started the request can finish it). Same errors, plus `forbidden` for a bad form token
 *   and `validation_failed` for a consumer not of that environment.
 *
 * CSRF: the form carries `consentFormToken(uid, userId)`, an HMAC under `AUTH_SECRET`; the
 * route also checks the request's Origin. The page cannot be framed (next.config.mjs headers).
 */
import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { oauthProvider } from "@/lib/oauth/provider";
import { MCP_SCOPE, parseMcpResource, type TEnvironmentPath } from "@/lib/oauth/resource";
import { aiApisOfConsumers } from "@/lib/serving/resolve-ai-caller";

/** The scopes a consent grants when asked for (those the provider knows: lib/oauth/provider.ts). */
const GRANTABLE_SCOPES = new Set(["openid", "offline_access", MCP_SCOPE]);

export interface TConsentConsumer {
  id: string;
  slug: string;
  name: string;
  /** The APIs its keys (and so the client) may call as MCP tools, by name. */
  apis: { slug: string; name: string }[];
}

export interface TConsentRequest {
  uid: string;
  client: { id: string; name: string; redirectUri: string };
  environment: TEnvironmentPath & { name: string; organizationName: string };
  consumers: TConsentConsumer[];
  formToken: string;
}

/** The form token of (request, person) (see module doc). */
export function consentFormToken(uid: string, userId: string): string {
  return createHmac("sha256", authSecret()).update(`oauth consent|${uid}|${userId}`).digest("base64url");
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function loadRequest(issuer: string, uid: string, userId: string) {
  const provider = await oauthProvider(issuer);
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) throw new AppError("not_found", "This sign-in request is unknown or has expired. Start connecting again from your AI client.");
  const params = interaction.params;
  const resources = Array.isArray(params.resource) ? params.resource : [params.resource];
  const path = resources.length === 1 ? parseMcpResource(issuer, resources[0]) : null;
  if (!path) throw new AppError("bad_request", "The client did not name one MCP endpoint of this service (its `resource` parameter).");
  const environment = await db.environment.findFirst({
    where: { slug: path.environment, organization: { slug: path.organization } },
    include: { organization: true, consumers: { orderBy: { name: "asc" } } },
  });
  if (!environment) throw new AppError("bad_request", "The MCP endpoint the client named does not exist.");
  const member = await db.membership.findUnique({ where: { userId_organizationId: { userId, organizationId: environment.organizationId } } });
  if (!member) throw new AppError("forbidden", `Only members of organization "${environment.organization.name}" can connect clients to its environments.`);
  const clientId = String(params.client_id);
  const client = await provider.Client.find(clientId);
  return { provider, interaction, path, environment, clientId, clientName: client?.clientName ?? clientId, resource: String(resources[0]) };
}

/** What the consent page shows (see module doc). */
export async function consentRequest(issuer: string, uid: string, userId: string): Promise<TConsentRequest> {
  const r = await loadRequest(issuer, uid, userId);
  const { apis } = await aiApisOfConsumers(
    { environmentId: r.environment.id, organizationId: r.environment.organizationId },
    r.environment.consumers.map((c) => c.id),
    r.path,
  );
  const consumers = r.environment.consumers.map((c) => ({
    id: c.id,
    slug: c.slug,
    name: c.name,
    apis: apis.get(c.id)!.map((a) => ({ slug: a.path.api, name: a.name })),
  }));
  return {
    uid,
    client: { id: r.clientId, name: r.clientName, redirectUri: String(r.interaction.params.redirect_uri ?? "") },
    environment: { ...r.path, name: r.environment.name, organizationName: r.environment.organization.name },
    consumers,
    formToken: consentFormToken(uid, userId),
  };
}

export type TConsentDecision = { allow: true; consumerId: string; formToken: string } | { allow: false; formToken: string };

/** Records the decision and returns where the browser goes on (see module doc). */
export async function decideConsent(issuer: string, uid: string, userId: string, decision: TConsentDecision): Promise<string> {
  if (!sameToken(decision.formToken, consentFormToken(uid, userId))) throw new AppError("forbidden", "The form has expired. Reload the page and choose again.");
  const r = await loadRequest(issuer, uid, userId);
  const epoch = Math.floor(Date.now() / 1000);
  if (!decision.allow) {
    r.interaction.result = { error: "access_denied", error_description: "The person declined to connect this client." };
  } else {
    const consumer = r.environment.consumers.find((c) => c.id === decision.consumerId);
    if (!consumer) throw new AppError("validation_failed", "Choose one of this environment's consumers.");
    const grant = new r.provider.Grant({ accountId: userId, clientId: r.clientId });
    grant.addResourceScope(r.resource, MCP_SCOPE);
    // The prompt may still be "login", whose details name no scopes: grant what was asked for.
    const requested = String(r.interaction.params.scope ?? "").split(" ");
    for (const scope of requested) if (GRANTABLE_SCOPES.has(scope)) grant.addOIDCScope(scope);
    const grantId = await grant.save();
    await db.oauthAuthorization.create({
      data: { consumerId: consumer.id, userId, grantId, clientId: r.clientId, clientName: r.clientName.slice(0, 200), resource: r.resource },
    });
    r.interaction.result = { login: { accountId: userId }, consent: { grantId } };
  }
  await r.interaction.save(r.interaction.exp - epoch);
  return r.interaction.returnTo;
}
