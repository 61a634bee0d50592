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
 * 2. The key, from `X-Api-Key` or `Authorization: Bearer <key>`, is resolved with its tools
 *    (lib/serving/resolve-ai-caller.ts). Missing or invalid: 401 with an RFC 9457 JSON body
 *    and deliberately no `WWW-Authenticate` challenge (a Bearer challenge would send clients
 *    into OAuth discovery, which this service does not offer). A plan without AI access:
 *    403 with a message saying so. Database down: 503 with `Retry-After`.
 *
 * GET and DELETE (2025-era session streams) are answered by the SDK: 405, there are no
 * sessions. Tool-list changes reach 2026-07-28 `subscriptions/listen` streams
 * (lib/mcp/list-changed.ts).
 */
import "server-only";
import { createMcpHandler, hostHeaderValidationResponse, originValidationResponse, type McpHttpHandler } from "@modelcontextprotocol/server";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { errorResponse, ZApiPath } from "@/lib/http/public-route";
import { requestOrigin } from "@/lib/http/request-origin";
import { resolveAiCaller } from "@/lib/serving/resolve-ai-caller";
import { buildMcpServer, type TMcpRequestContext } from "@/lib/mcp/server";
import { watchToolListChanges } from "@/lib/mcp/list-changed";
import { recordCall } from "@/lib/metering/call-counter";
import { touchApiKey } from "@/lib/keys/touch-api-key";

/** Host names the endpoint answers to (see module doc). */
export function allowedHostnames(): string[] {
  const names = new Set(["localhost", "127.0.0.1", "[::1]"]);
  const base = env().PUBLIC_BASE_URL;
  if (base) names.add(new URL(base).hostname);
  for (const h of (env().MCP_ALLOWED_HOSTS ?? "").split(",")) if (h.trim()) names.add(h.trim().toLowerCase());
  return [...names];
}

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

/** The key from `X-Api-Key`, else from `Authorization: Bearer`. */
function apiKeyOf(req: Request): string | null {
  const header = req.headers.get("x-api-key");
  if (header) return header.trim();
  const auth = req.headers.get("authorization");
  const m = auth?.match(/^Bearer\s+(\S+)\s*$/i);
  return m ? m[1] : null;
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
    const caller = await resolveAiCaller(named.data, apiKeyOf(req));
    touchApiKey(caller.keyId);
    const context: TMcpRequestContext = { caller, baseUrl: env().PUBLIC_BASE_URL?.replace(/\/$/, "") ?? requestOrigin(req.headers, new URL(req.url).origin) };
    return await handler().fetch(req, { authInfo: { token: caller.keyId, clientId: caller.consumerId, scopes: [], extra: { flowApi: context } } });
  } catch (err) {
    const res = errorResponse(err, instance, "mcp");
    // Refused before any tool ran: shown in the console by status, never billed.
    if (named.success) recordCall({ ...named.data, door: "mcp", api: "", consumerId: null, status: res.status });
    return res;
  }
}
