/**
 * The MCP front door: Streamable HTTP at `/public/mcp/{organization}/{environment}`,
 * stateless, on the official SDK's `createMcpHandler` (one handler per process; it serves
 * the 2026-07-28 revision and, through its stateless legacy fallback, 2025-era clients that
 * `initialize` first). Before a request reaches the SDK:
 *
 * 1. Host and Origin are validated against the service's own host names (DNS rebinding,
 *    MCP "Security Warning" of the Streamable HTTP transport): `localhost`, `127.0.0.1`,
 *    `[::1]`, the host of `PUBLIC_BASE_URL` and those in `MCP_ALLOWED_HOSTS`; a request
 *    without `Origin` (every non-browser client) passes that check. Refused: 403.
 * 2. The credential: an API key in `X-Api-Key` or `Authorization: Bearer <key>` (a Bearer
 *    value shaped like a key is a key), else an OAuth access token in `Authorization: Bearer`
 *    (lib/oauth/verify-access-token.ts: the consumer chosen at consent). Either is resolved
 *    with its tools (lib/serving/resolve-ai-caller.ts), a token exactly as a key of its
 *    consumer. Missing or invalid: 401 with an RFC 9457 JSON body and the MCP authorization
 *    specification's challenge, `WWW-Authenticate: Bearer resource_metadata="...", scope="mcp"`
 *    (after `error="invalid_token"` when one was sent), which points OAuth clients at the
 *    environment's protected resource metadata (RFC 9728, lib/oauth/resource.ts) and names the
 *    scope to ask for. An environment that does not exist: 404 instead (checked only once the
 *    credential is refused, so a served request pays no query for it), as its metadata is: a
 *    challenge would send the client to a metadata address that answers 404. A token without
 *    the `mcp` scope: 403 with the scope challenge
 *    `Bearer error="insufficient_scope", scope="mcp", resource_metadata="..."` (RFC 6750
 *    section 3.1). A plan without AI access: 403 with a message saying so. Database down: 503
 *    with `Retry-After`.
 *
 * GET and DELETE (2025-era session streams) are answered by the SDK: 405, there are no
 * sessions. Tool-list changes reach 2026-07-28 `subscriptions/listen` streams
 * (lib/mcp/list-changed.ts).
 */
import "server-only";
import { createMcpHandler, hostHeaderValidationResponse, originValidationResponse, type McpHttpHandler } from "@modelcontextprotocol/server";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { allowedHostnames } from "@/lib/http/allowed-hosts";
import { errorResponse, ZApiPath } from "@/lib/http/public-route";
import { publicOrigin } from "@/lib/http/request-origin";
import { KEY_PATTERN } from "@/lib/keys/api-key";
import { issuerOf } from "@/lib/oauth/provider";
import { environmentExists } from "@/lib/oauth/known-environment";
import { MCP_SCOPE, resourceMetadataUrl, type TEnvironmentPath } from "@/lib/oauth/resource";
import { InsufficientScope, verifyAccessToken } from "@/lib/oauth/verify-access-token";
import { resolveAiCaller, resolveAiCallerOfConsumer, type TAiCaller } from "@/lib/serving/resolve-ai-caller";
import { buildMcpServer, type TMcpRequestContext } from "@/lib/mcp/server";
import { watchToolListChanges } from "@/lib/mcp/list-changed";
import { recordCall } from "@/lib/metering/call-counter";
import { touchApiKey } from "@/lib/keys/touch-api-key";

let mcpHandler: McpHttpHandler | undefined;

/** The process's handler, made on first use (with its tool-list change watch). */
function handler(): McpHttpHandler {
  if (!mcpHandler) {
    const h = createMcpHandler((ctx) => buildMcpServer(ctx.authInfo?.extra?.flowApi as TMcpRequestContext, ctx.era), {
      // The same body limit as POST /runs: a tool call carries the same caller data.
      maxRequestBodySize: env().MAX_BODY_BYTES,
      onerror: (err) => {
        if (process.env.MCP_DEBUG) console.error("[mcp]", err);
      },
    });
    mcpHandler = h;
    watchToolListChanges(() => h.notify.toolsChanged());
  }
  return mcpHandler;
}

/** The credential sent: an API key (`X-Api-Key`, or a Bearer value shaped like a key), an access token (any other Bearer value), or none. */
function credentialOf(req: Request): { kind: "key"; value: string } | { kind: "token"; value: string } | null {
  const header = req.headers.get("x-api-key");
  if (header) return { kind: "key", value: header.trim() };
  const m = req.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!m) return null;
  return KEY_PATTERN.test(m[1]!) ? { kind: "key", value: m[1]! } : { kind: "token", value: m[1]! };
}

async function resolveCaller(req: Request, path: { organization: string; environment: string }): Promise<TAiCaller> {
  const credential = credentialOf(req);
  if (credential?.kind !== "token") return resolveAiCaller(path, credential?.value ?? null);
  const consent = await verifyAccessToken(req, path, credential.value);
  return resolveAiCallerOfConsumer(path, { keyId: consent.authorizationId, ...consent });
}

/**
 * `WWW-Authenticate` of a 401, or of the 403 of a token without the `mcp` scope (MCP
 * authorization "Protected Resource Metadata Discovery" and "Scope Challenge Handling",
 * RFC 9728 section 5.1, RFC 6750 section 3). Null when the host is not one the service answers to.
 */
function challenge(req: Request, path: TEnvironmentPath, err: "invalid_token" | "insufficient_scope" | null): string | null {
  const issuer = issuerOf(req);
  if (!issuer) return null;
  const metadata = `resource_metadata="${resourceMetadataUrl(issuer, path)}"`;
  const scope = `scope="${MCP_SCOPE}"`;
  // A quoted-string (RFC 9110 section 5.6.4): the description holds no quote or backslash.
  const description = `error_description="The access token was not granted the ${MCP_SCOPE} scope; connect again asking for it"`;
  if (err === "insufficient_scope") return `Bearer error="insufficient_scope", ${scope}, ${metadata}, ${description}`;
  return err ? `Bearer error="${err}", ${metadata}, ${scope}` : `Bearer ${metadata}, ${scope}`;
}

/** Serves one MCP request (see module doc). */
export async function handleMcpRequest(req: Request, path: { organization?: string; environment?: string }): Promise<Response> {
  const instance = new URL(req.url).pathname;
  const hosts = allowedHostnames();
  const rejected = hostHeaderValidationResponse(req, hosts) ?? originValidationResponse(req, hosts);
  if (rejected) return rejected;
  const named = ZApiPath.omit({ api: true }).safeParse(path);
  try {
    if (!named.success) throw new AppError("not_found", "No MCP endpoint is served at this address.");
    const caller = await resolveCaller(req, named.data);
    touchApiKey(caller.keyId);
    const context: TMcpRequestContext = { caller, baseUrl: publicOrigin(req.headers, new URL(req.url).origin, env().PUBLIC_BASE_URL).origin };
    return await handler().fetch(req, { authInfo: { token: caller.keyId, clientId: caller.consumerId, scopes: [], extra: { flowApi: context } } });
  } catch (err) {
    let refusal = err;
    if (err instanceof AppError && err.code === "unauthorized" && named.success && !(await environmentExists(named.data).catch(() => true))) {
      refusal = new AppError("not_found", "No MCP endpoint is served at this address: the organization or environment does not exist.");
    }
    const res = errorResponse(refusal, instance, "mcp");
    let bearer: string | null = null;
    if (named.success && res.status === 401) bearer = challenge(req, named.data, credentialOf(req) ? "invalid_token" : null);
    if (named.success && refusal instanceof InsufficientScope) bearer = challenge(req, named.data, "insufficient_scope");
    if (bearer) res.headers.set("www-authenticate", bearer);
    // Refused before any tool ran: shown in the console by status, never billed.
    if (named.success) recordCall({ ...named.data, door: "mcp", api: "", consumerId: null, status: res.status });
    return res;
  }
}
