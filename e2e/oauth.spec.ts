/**
 * The MCP endpoint as an OAuth 2.1 protected resource (lib/oauth), end to end over real HTTP
 * with Chromium signing in and consenting: the official SDK client's OAuth flow, then each
 * refusal the MCP authorization specification asks for (PKCE, redirect URI, audience,
 * expiry, revocation, another environment, a person of another organization).
 */
import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { DEMO, USERS } from "./support/env";
import { authorizeUrl, consentInBrowser, listToolsWith, MemoryOAuthProvider, pkce, rawTokens, REDIRECT_URI, registerClient, rpcResult, tokenRequest } from "./support/oauth";
import { createUser, sql } from "./support/users";

const BASE = process.env.TEST_BASE_URL ?? "http://127.0.0.1:3000";
const MCP_URL = `${BASE}/public/mcp/${DEMO.organization}/${DEMO.environment}`;

test("the SDK client connects by OAuth: 401 challenge, discovery, registration, sign-in, consent, tools", async ({ page }) => {
  const challenge = await fetch(MCP_URL, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(challenge.status).toBe(401);
  const metadataUrl = `${BASE}/.well-known/oauth-protected-resource/public/mcp/${DEMO.organization}/${DEMO.environment}`;
  expect(challenge.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`);
  const metadata = await (await fetch(metadataUrl)).json();
  expect(metadata).toMatchObject({ resource: MCP_URL, authorization_servers: [BASE] });
  const as = await (await fetch(`${BASE}/.well-known/oauth-authorization-server`)).json();
  expect(as).toMatchObject({ issuer: BASE, code_challenge_methods_supported: ["S256"], response_types_supported: ["code"] });

  const provider = new MemoryOAuthProvider();
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider });
  await expect(new Client({ name: "oauth-e2e", version: "1.0.0" }).connect(transport)).rejects.toThrow(UnauthorizedError);
  expect(provider.authorizationUrl?.searchParams.get("resource")).toBe(MCP_URL);
  expect(provider.authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256");

  const back = await consentInBrowser(page, provider.authorizationUrl!.toString(), USERS.admin, "demo-consumer");
  await transport.finishAuth(back.searchParams);
  const tokens = provider.tokens()!;
  expect(tokens.refresh_token).toBeTruthy();
  // Stored hashed: the token itself is in no row.
  const { rows } = await sql().query(`SELECT count(*)::int AS n FROM oauth_record WHERE payload::text LIKE $1 OR id = $2`, [`%${tokens.access_token}%`, tokens.access_token]);
  expect(rows[0].n).toBe(0);

  const client = new Client({ name: "oauth-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider }));
  try {
    const { tools } = await client.listTools();
    // Exactly the demo consumer's tools, as with its key.
    const keyed = await rpcResult(await listToolsWith(MCP_URL, process.env.TEST_DEMO_API_KEY!));
    const keyedTools = (keyed.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools.map((t) => t.name)).toEqual(keyedTools);
    const result = await client.callTool({ name: "list_layers", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("world-cities");
  } finally {
    await client.close();
  }
});
