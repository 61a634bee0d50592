/**
 * Who an OAuth access token on the MCP endpoint stands for: the consumer a member of the
 * organization chose at consent (lib/oauth/consent.ts), so the MCP door then serves it
 * exactly like one of that consumer's API keys (lib/serving/resolve-ai-caller.ts).
 *
 * The token is looked up by the provider (its SHA-256 in `oauth_record`: unknown, expired
 * or revoked tokens are not found) and must be bound to this very endpoint (`aud` is the
 * environment's MCP URL, RFC 8707; a token of another environment is refused). Its consent
 * must not be revoked, its consumer must be of this environment, and the person who
 * consented must still be a member of the organization.
 *
 * Errors: AppError `unauthorized` for all of these (one answer, nothing revealed; the door
 * challenges with `error="invalid_token"`). A token that passes them but was not granted the
 * `mcp` scope (a client that asked for other scopes only, e.g. `openid`) is `InsufficientScope`
 * (403; the door challenges with `error="insufficient_scope"`, RFC 6750 section 3.1, the MCP
 * authorization specification's scope challenge), so the client asks again for `mcp`.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { issuerOf, oauthProvider } from "@/lib/oauth/provider";
import { MCP_SCOPE, mcpResourceUrl, type TEnvironmentPath } from "@/lib/oauth/resource";

export interface TOauthConsumer {
  /** The consent's id: stands for the key in rate limits and "last used". */
  authorizationId: string;
  consumerId: string;
  environmentId: string;
  organizationId: string;
}

/** The 401 of a token that is not valid here. */
export function invalidToken(): AppError {
  return new AppError("unauthorized", "The access token is not valid for this MCP endpoint (unknown, expired, revoked or issued for another one).");
}

/** A valid token without the `mcp` scope (see module doc): 403 `forbidden`, told apart by its class. */
export class InsufficientScope extends AppError {
  constructor() {
    super("forbidden", `The access token was not granted the "${MCP_SCOPE}" scope this MCP endpoint requires. Connect again asking for scope "${MCP_SCOPE}".`);
  }
}

/** Resolves a bearer access token sent to `path`'s MCP endpoint (see module doc). */
export async function verifyAccessToken(req: Request, path: TEnvironmentPath, token: string): Promise<TOauthConsumer> {
  const issuer = issuerOf(req);
  if (!issuer) throw invalidToken();
  const found = await (await oauthProvider(issuer)).AccessToken.find(token);
  const audiences = found ? (Array.isArray(found.aud) ? found.aud : [found.aud]) : [];
  if (!found?.grantId || !audiences.includes(mcpResourceUrl(issuer, path))) throw invalidToken();
  const consent = await db.oauthAuthorization.findUnique({
    where: { grantId: found.grantId },
    include: { consumer: { include: { environment: { include: { organization: true } } } } },
  });
  if (
    !consent ||
    consent.revokedAt ||
    consent.consumer.environment.slug !== path.environment ||
    consent.consumer.environment.organization.slug !== path.organization
  ) {
    throw invalidToken();
  }
  const organizationId = consent.consumer.environment.organizationId;
  const member = await db.membership.findUnique({ where: { userId_organizationId: { userId: consent.userId, organizationId } } });
  if (!member) throw invalidToken();
  // The scope of a token bound to a resource is what was both asked for and granted for it.
  if (
    !String(found.scope ?? "")
      .split(" ")
      .includes(MCP_SCOPE)
  )
    throw new InsufficientScope();
  return { authorizationId: consent.id, consumerId: consent.consumerId, environmentId: consent.consumer.environmentId, organizationId };
}
