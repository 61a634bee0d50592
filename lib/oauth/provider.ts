/**
 * The MCP endpoint's OAuth 2.1 authorization server: oidc-provider 8 (a certified OpenID
 * Provider library; none of the protocol is written here), configured for the MCP
 * authorization specification:
 *
 * - authorization code flow only, PKCE required with S256 only (plain and missing refused);
 * - resource indicators (RFC 8707): the only resources are the environments' MCP endpoints
 *   (lib/oauth/resource.ts), each access token's audience is exactly one of them, and a
 *   resource naming no existing environment is `invalid_target`; so is an authorization
 *   request that names no resource, answered at once on its redirect URI (RFC 6749 section
 *   4.1.2.1) rather than after sign-in;
 * - scope: `mcp`, the only one a token needs (lib/oauth/verify-access-token.ts refuses a token
 *   without it, 403); an authorization request that names no scope asks for it (the MCP
 *   specification lets a client omit one). `openid` and `offline_access` are accepted and
 *   add nothing: a refresh token is issued to every client registered with the
 *   `refresh_token` grant type, whether or not it asks for `offline_access` (OAuth 2.1 leaves
 *   it to the server; most MCP clients never ask, SEP-2207);
 * - opaque access tokens of 10 minutes, refresh tokens rotated on every use (14 days);
 * - dynamic client registration (RFC 7591, open) and Client ID Metadata Documents
 *   (lib/oauth/client-metadata-document.ts); redirect URIs https, or http on loopback only
 *   (lib/oauth/redirect-uris.ts: `invalid_redirect_uri`), and compared exactly;
 * - CORS for browser-based clients (the MCP Inspector) on the metadata, registration, token
 *   and revocation endpoints, preflights included;
 * - everything stored in Postgres (lib/oauth/adapter.ts), so any web process serves any step;
 * - sign-in and consent are the app's own page (`/oauth/consent/{uid}`, lib/oauth/consent.ts).
 *
 * Issuer: the service's origin (`PUBLIC_BASE_URL`, else the request's, when its host is one
 * the service answers to: lib/http/allowed-hosts.ts). Endpoints under `/oauth/`; metadata
 * (RFC 8414) at `/.well-known/oauth-authorization-server` and
 * `/.well-known/openid-configuration`.
 *
 * oidc-provider is a Koa application for Node's `http` server, and Next.js route handlers
 * see Web requests: each issuer's provider listens on a loopback port of its own process,
 * and `oauthFetch` forwards a request there with `X-Forwarded-Host`/`-Proto` (the provider
 * trusts them: `proxy = true`, and only this process reaches that port).
 *
 * Signing keys (id tokens only; access tokens are opaque) are made once and kept in
 * `oauth_record`; cookie keys are derived from `AUTH_SECRET`.
 */
import "server-only";
import { createHmac, generateKeyPairSync } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { errors } from "oidc-provider";
import { authSecret } from "@/lib/auth/secret";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import { allowedHostnames } from "@/lib/http/allowed-hosts";
import { requestOrigin } from "@/lib/http/request-origin";
import { PrismaOauthAdapter, recordKey } from "@/lib/oauth/adapter";
import { environmentExists } from "@/lib/oauth/known-environment";
import { redirectUriRefusal } from "@/lib/oauth/redirect-uris";
import { MCP_SCOPE, parseMcpResource } from "@/lib/oauth/resource";

export const ACCESS_TOKEN_TTL_SECONDS = 600;
const REFRESH_TOKEN_TTL_SECONDS = 14 * 86_400;

interface TServed {
  provider: Provider;
  port: number;
}

const globalForOauth = globalThis as unknown as { flowOauth?: Map<string, Promise<TServed>> };

/** The origin the authorization server serves `req` as: its issuer. Null for a host the service does not answer to. */
export function issuerOf(req: Request): string | null {
  return issuerOfHeaders(req.headers, new URL(req.url).origin);
}

/** `issuerOf` for a page, which has the request's headers only. */
export function issuerOfHeaders(headers: Headers, fallbackOrigin = "http://localhost"): string | null {
  const base = env().PUBLIC_BASE_URL;
  if (base) return base.replace(/\/+$/, "");
  const origin = requestOrigin(headers, fallbackOrigin);
  return allowedHostnames().includes(new URL(origin).hostname) ? origin : null;
}

/** The signing keys, made by the first process that needs them. */
async function signingKeys(): Promise<Record<string, unknown>[]> {
  const id = recordKey("SigningKeys", "jwks");
  const found = await db.oauthRecord.findUnique({ where: { id } });
  if (found) return found.payload as Record<string, unknown>[];
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), use: "sig", alg: "RS256", kid: recordKey("kid", String(Date.now())).slice(0, 16) };
  await db.oauthRecord.createMany({ data: [{ id, model: "SigningKeys", payload: [jwk] as Prisma.InputJsonValue }], skipDuplicates: true });
  return (await db.oauthRecord.findUniqueOrThrow({ where: { id } })).payload as Record<string, unknown>[];
}

const escapeHtml = (v: unknown) => String(v).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The page of an authorization request that cannot be sent back to its client (unknown
 * client, a redirect URI that does not match): plain HTML with nothing fetched from elsewhere
 * (the library's default loads a web font).
 */
async function renderError(ctx: { type: string; body: string }, out: { error?: string; error_description?: string }): Promise<void> {
  ctx.type = "html";
  ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cannot connect the AI client</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}@media (prefers-color-scheme:dark){body{background:#111;color:#eee}}code{overflow-wrap:anywhere}</style></head>
<body><main><h1>Cannot connect the AI client</h1><p>${escapeHtml(out.error_description ?? "The authorization request is not valid.")}</p>
<p>Error: <code>${escapeHtml(out.error ?? "invalid_request")}</code>. Start connecting again from your AI client.</p></main></body></html>`;
}

/** The Koa context `registrationCors` uses. */
interface TCorsContext {
  method: string;
  path: string;
  status: number;
  get(name: string): string;
  set(name: string, value: string): void;
  vary(name: string): void;
}

/**
 * CORS on the registration endpoint (`/oauth/register`, and `/oauth/register/{client_id}`),
 * where oidc-provider has none (it has on metadata, token and revocation): a browser-based
 * client registers cross-origin, after a preflight for its JSON body. Registration is open
 * and carries no cookie, so any origin may.
 */
async function registrationCors(ctx: TCorsContext, next: () => Promise<void>): Promise<void> {
  if (ctx.path !== "/oauth/register" && !ctx.path.startsWith("/oauth/register/")) return next();
  const origin = ctx.get("origin");
  ctx.vary("Origin");
  if (ctx.method === "OPTIONS") {
    ctx.status = 204;
    ctx.set("access-control-allow-origin", origin || "*");
    ctx.set("access-control-allow-methods", "GET, POST");
    ctx.set("access-control-allow-headers", ctx.get("access-control-request-headers") || "content-type, authorization");
    ctx.set("access-control-max-age", "3600");
    return;
  }
  await next();
  if (origin) ctx.set("access-control-allow-origin", origin);
}

async function createProvider(issuer: string): Promise<Provider> {
  const cookieKey = createHmac("sha256", authSecret()).update("oauth cookies").digest("base64url");
  const cookie = { signed: true, httpOnly: true, sameSite: "lax" };
  const provider = new Provider(issuer, {
    adapter: PrismaOauthAdapter,
    clients: [],
    jwks: { keys: await signingKeys() },
    cookies: { keys: [cookieKey], long: cookie, short: cookie },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    routes: {
      authorization: "/oauth/authorize",
      token: "/oauth/token",
      registration: "/oauth/register",
      revocation: "/oauth/revoke",
      jwks: "/oauth/jwks",
      end_session: "/oauth/session/end",
      userinfo: "/oauth/userinfo",
      introspection: "/oauth/introspect",
      pushed_authorization_request: "/oauth/par",
      code_verification: "/oauth/device",
      device_authorization: "/oauth/device/auth",
      backchannel_authentication: "/oauth/backchannel",
    },
    responseTypes: ["code"],
    pkce: { methods: ["S256"], required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    clientDefaults: { grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" },
    // Extends the library's own checks of `redirect_uris` (it lets a web client register http on
    // any host) for every client: registered, fetched as a metadata document, or stored.
    extraClientMetadata: {
      properties: ["redirect_uris"],
      validator: (_ctx: unknown, key: string, value: unknown, metadata: { application_type?: unknown }) => {
        if (key !== "redirect_uris" || !Array.isArray(value)) return;
        for (const uri of value) {
          const refusal = redirectUriRefusal(String(uri), metadata.application_type);
          if (refusal) throw Object.assign(new errors.InvalidRedirectUri(), { error_description: refusal });
        }
      },
    },
    // Browser-based clients (the MCP Inspector) call the token and registration endpoints
    // cross-origin; PKCE and exact redirect URIs are what protect the code.
    clientBasedCORS: () => true,
    discovery: { client_id_metadata_document_supported: true },
    // Clients register with the protected resource's scopes (RFC 7591 `scope`), so the
    // server must list them too.
    scopes: ["openid", "offline_access", MCP_SCOPE],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        // At the token endpoint (`oneOf`: the resources of the grant) the one granted is used;
        // an authorization request without a resource is refused, as one naming no MCP
        // endpoint is: every token is for exactly one endpoint.
        defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string[]) => {
          if (oneOf) return oneOf;
          throw new errors.InvalidTarget("Name the MCP endpoint to connect to in the resource parameter (RFC 8707).");
        },
        getResourceServerInfo: async (_ctx: unknown, resource: string) => {
          const path = parseMcpResource(issuer, resource);
          const known = path && (await environmentExists(path));
          if (!known) throw new errors.InvalidTarget("The resource is not an MCP endpoint of this service.");
          return { scope: MCP_SCOPE, audience: resource, accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS, accessTokenFormat: "opaque" };
        },
      },
    },
    renderError,
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/oauth/consent/${interaction.uid}` },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed: (t: string) => boolean }) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    // A client's tokens live by the consent (revoked in the console), not by the browser
    // session that gave it.
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      Interaction: 1800,
      Session: 3600,
      Grant: REFRESH_TOKEN_TTL_SECONDS,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
    },
  });
  provider.proxy = true;
  // A client that names no scope (the MCP specification lets it omit one) asks for the only
  // one there is; oidc-provider would otherwise deny a request that grants nothing. (MCP
  // clients send the authorization request as a GET, the browser's redirect.)
  provider.use(async (ctx: { method: string; path: string; query: Record<string, unknown> }, next: () => Promise<void>) => {
    if (ctx.method === "GET" && ctx.path === "/oauth/authorize" && !ctx.query.scope) ctx.query = { ...ctx.query, scope: MCP_SCOPE };
    await next();
  });
  provider.use(registrationCors);
  return provider;
}

async function serve(issuer: string): Promise<TServed> {
  const provider = await createProvider(issuer);
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return { provider, port: (server.address() as AddressInfo).port };
}

/** The provider (and its loopback port) of `issuer`, made on first use. */
export function servedProvider(issuer: string): Promise<TServed> {
  const map = (globalForOauth.flowOauth ??= new Map());
  let served = map.get(issuer);
  if (!served) {
    served = serve(issuer);
    served.catch(() => map.delete(issuer));
    map.set(issuer, served);
  }
  return served;
}

/** The provider of `issuer` (see module doc). */
export async function oauthProvider(issuer: string): Promise<Provider> {
  return (await servedProvider(issuer)).provider;
}

const HOP_BY_HOP = new Set(["host", "connection", "keep-alive", "transfer-encoding", "upgrade", "content-length"]);

/**
 * Forwards `req` to the authorization server, at `path` (default: the request's own path and
 * query), and answers with its response as it is. 404 for a host the service does not answer to.
 */
export async function oauthFetch(req: Request, path?: string): Promise<Response> {
  const issuer = issuerOf(req);
  if (!issuer) return new Response("Not found", { status: 404 });
  const { port } = await servedProvider(issuer);
  const url = new URL(req.url);
  const headers = new Headers();
  req.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && !name.startsWith("x-forwarded-")) headers.set(name, value);
  });
  const origin = new URL(issuer);
  headers.set("x-forwarded-host", origin.host);
  headers.set("x-forwarded-proto", origin.protocol.replace(":", ""));
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const upstream = await fetch(`http://127.0.0.1:${port}${path ?? url.pathname + url.search}`, {
    method: req.method,
    headers,
    body: hasBody ? await req.arrayBuffer() : undefined,
    redirect: "manual",
  });
  const out = new Headers();
  upstream.headers.forEach((value, name) => {
    if (name !== "set-cookie" && !HOP_BY_HOP.has(name) && name !== "content-encoding") out.set(name, value);
  });
  for (const c of upstream.headers.getSetCookie()) out.append("set-cookie", c);
  return new Response(upstream.body, { status: upstream.status, headers: out });
}
