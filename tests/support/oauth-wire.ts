/**
 * The OAuth and MCP requests both test runners send as a client would: the integration tests
 * (vitest, tests/integration/oauth-helpers.ts) and the browser tests (Playwright,
 * e2e/support/oauth.ts). Runner-neutral on purpose: nothing here asserts; each caller checks
 * the answers with its own runner's `expect`.
 */
import { createHash, randomBytes } from "node:crypto";

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** POSTs `form` to the token endpoint of the service at `baseUrl`; status and JSON body. */
export async function tokenRequest(baseUrl: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/**
 * Exchanges an authorization `code` for tokens (RFC 6749 §4.1.3, with the PKCE `verifier` of
 * RFC 7636 and the `resource` of RFC 8707); status and JSON body, as `tokenRequest`.
 */
export function exchangeCode(
  baseUrl: string,
  grant: { code: string; clientId: string; verifier: string; resource: string; redirectUri: string },
): Promise<{ status: number; body: Record<string, string> }> {
  return tokenRequest(baseUrl, {
    grant_type: "authorization_code",
    code: grant.code,
    redirect_uri: grant.redirectUri,
    client_id: grant.clientId,
    code_verifier: grant.verifier,
    resource: grant.resource,
  });
}

/**
 * One MCP `tools/list` to `url` with `Authorization: Bearer token`, as a 2025-era client
 * without the SDK sends it (the refusals are what the tests look at); the raw response.
 */
export async function listToolsWith(url: string, token: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
}
