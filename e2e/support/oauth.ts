/**
 * OAuth helpers for the browser tests of the MCP authorization server (e2e/oauth.spec.ts):
 *
 * - `MemoryOAuthProvider`: the official SDK client's `OAuthClientProvider`, kept in memory;
 *   `redirectToAuthorization` only records the URL, which the test opens in Chromium.
 * - `consentInBrowser`: opens an authorization URL, signs in when asked, chooses a consumer on
 *   the consent page, allows, and returns the redirect the client would receive (the
 *   redirect URI's host is answered by Playwright, nothing listens there).
 * - `rawTokens`: the same flow by hand (dynamic registration, PKCE S256, code exchange), for
 *   the tests that vary one parameter at a time.
 */
import { expect, type Page } from "@playwright/test";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { exchangeCode, pkce } from "../../tests/support/oauth-wire";
import { signIn } from "./sign-in";

export { listToolsWith, pkce, tokenRequest } from "../../tests/support/oauth-wire";

export const REDIRECT_URI = "http://localhost:8976/callback";

type TTokens = Awaited<ReturnType<OAuthClientProvider["tokens"]>>;
type TClientInfo = Awaited<ReturnType<OAuthClientProvider["clientInformation"]>>;

/** An in-memory OAuthClientProvider (see module doc). */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private info: TClientInfo;
  private saved: TTokens;
  private verifier = "";
  private discovery: unknown;

  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata() {
    return {
      client_name: "SDK test client",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: TClientInfo) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: TTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery as never;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * Opens `authorizationUrl`, signs in as `user` when asked, allows as `consumer`; the client's
 * redirect URL. Playwright answers `REDIRECT_URI` itself; another `redirectUri` must be served.
 */
export async function consentInBrowser(
  page: Page,
  authorizationUrl: string,
  user: { email: string; password: string },
  consumer: string,
  redirectUri = REDIRECT_URI,
): Promise<URL> {
  if (redirectUri === REDIRECT_URI) {
    await page.route("http://localhost:8976/**", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "back at the client" }));
  }
  await page.goto(authorizationUrl);
  if (page.url().includes("/sign-in")) await signIn(page, user.email, user.password);
  await expect(page.getByRole("heading", { name: "Connect an AI client" })).toBeVisible();
  await page.getByRole("radio", { name: new RegExp(consumer) }).check();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((u) => u.toString().startsWith(redirectUri));
  return new URL(page.url());
}

/** Registers a public client (RFC 7591); its client_id. */
export async function registerClient(baseUrl: string, redirectUris = [REDIRECT_URI]): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "raw test client",
      redirect_uris: redirectUris,
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** An authorization request URL. */
export function authorizeUrl(baseUrl: string, params: Record<string, string>): string {
  return `${baseUrl}/oauth/authorize?${new URLSearchParams({ response_type: "code", scope: "mcp", state: "s1", ...params })}`;
}

/** The whole flow by hand for `resource`; the token response. */
export async function rawTokens(
  page: Page,
  baseUrl: string,
  resource: string,
  user: { email: string; password: string },
  consumer: string,
): Promise<{ clientId: string; access_token: string; refresh_token: string }> {
  const clientId = await registerClient(baseUrl);
  const { verifier, challenge } = pkce();
  const back = await consentInBrowser(
    page,
    authorizeUrl(baseUrl, { client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "S256", resource }),
    user,
    consumer,
  );
  const code = back.searchParams.get("code");
  expect(code, back.toString()).toBeTruthy();
  const token = await exchangeCode(baseUrl, { code: code!, clientId, verifier, resource, redirectUri: REDIRECT_URI });
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return { clientId, access_token: token.body.access_token!, refresh_token: token.body.refresh_token! };
}

/** The JSON-RPC message of an MCP response, whether sent as JSON or as one SSE event. */
export async function rpcResult(res: Response): Promise<{ result?: unknown; error?: unknown }> {
  const text = await res.text();
  const data = text.trimStart().startsWith("{") ? text : (text.split("\n").find((l) => l.startsWith("data:")) ?? "").slice(5);
  return JSON.parse(data) as { result?: unknown; error?: unknown };
}
