/**
 * The MCP endpoint as an OAuth 2.1 protected resource (lib/oauth), end to end over real HTTP
 * with Chromium signing in and consenting: the official SDK client's OAuth flow, then each
 * refusal the MCP authorization specification asks for (PKCE, redirect URI, audience,
 * expiry, revocation, another environment, a person of another organization).
 */
import { createHash } from "node:crypto";
import { spawn } from "node:child_process";
import fs from "node:fs";
import { mkdir, mkdtemp } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { DEMO, ROOT, USERS } from "./support/env";
import {
  authorizeUrl,
  consentInBrowser,
  listToolsWith,
  MemoryOAuthProvider,
  pkce,
  rawTokens,
  REDIRECT_URI,
  registerClient,
  rpcResult,
  tokenRequest,
} from "./support/oauth";
import { createUser, sql } from "./support/users";
import { signIn } from "./support/sign-in";
import { expectAccessible } from "./support/a11y";

const BASE = process.env.TEST_BASE_URL ?? "http://127.0.0.1:3000";
const MCP_URL = `${BASE}/public/mcp/${DEMO.organization}/${DEMO.environment}`;
const CONSOLE = `/console/${DEMO.organization}/${DEMO.environment}`;
/** Where the pictures of the pages go (looked at by a person; not compared). */
const SHOTS = path.join(ROOT, ".data/e2e-shots/oauth");

test("the SDK client connects by OAuth: 401 challenge, discovery, registration, sign-in, consent, tools", async ({ page }) => {
  const challenge = await fetch(MCP_URL, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(challenge.status).toBe(401);
  const metadataUrl = `${BASE}/.well-known/oauth-protected-resource/public/mcp/${DEMO.organization}/${DEMO.environment}`;
  expect(challenge.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp"`);
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
  const { rows } = await sql().query(`SELECT count(*)::int AS n FROM oauth_record WHERE payload::text LIKE $1 OR id = $2`, [
    `%${tokens.access_token}%`,
    tokens.access_token,
  ]);
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

test("the authorization endpoint refuses missing or plain PKCE, an inexact redirect URI and a resource that is not an MCP endpoint here", async () => {
  const clientId = await registerClient(BASE);
  const { challenge } = pkce();
  const base = { client_id: clientId, redirect_uri: REDIRECT_URI, resource: MCP_URL };
  const errorOf = async (params: Record<string, string>) => {
    const res = await fetch(authorizeUrl(BASE, params), { redirect: "manual" });
    const location = res.headers.get("location");
    return { status: res.status, error: location ? new URL(location, BASE).searchParams.get("error") : null, location, text: await res.text() };
  };
  expect((await errorOf(base)).error).toBe("invalid_request");
  expect((await errorOf({ ...base, code_challenge: challenge, code_challenge_method: "plain" })).error).toBe("invalid_request");
  expect((await errorOf({ ...base, code_challenge: challenge })).error).toBe("invalid_request");
  // Not the registered URI (a longer path, another port): no redirect at all.
  for (const uri of [`${REDIRECT_URI}/more`, "http://localhost:8977/callback", `${REDIRECT_URI}?x=1`]) {
    const r = await errorOf({ ...base, redirect_uri: uri, code_challenge: challenge, code_challenge_method: "S256" });
    expect(r.status, uri).toBe(400);
    expect(r.location, uri).toBeNull();
    expect(r.text, uri).toContain("redirect_uri did not match any of the client");
  }
  for (const resource of [
    `${BASE}/public/mcp/demo/no-such-environment`,
    `https://elsewhere.example/public/mcp/demo/production`,
    `${BASE}/public/api/demo/production`,
  ]) {
    expect((await errorOf({ ...base, resource, code_challenge: challenge, code_challenge_method: "S256" })).error, resource).toBe("invalid_target");
  }
  // With S256 the same request goes on to sign-in and consent.
  const ok = await fetch(authorizeUrl(BASE, { ...base, code_challenge: challenge, code_challenge_method: "S256" }), { redirect: "manual" });
  expect(new URL(ok.headers.get("location")!, BASE).pathname).toMatch(/^\/oauth\/consent\//);
});

test("a token is bound to its environment, expires, rotates its refresh token, and stops at revocation", async ({ page }) => {
  await sql().query(
    `INSERT INTO environment (id, "organizationId", slug, name) SELECT gen_random_uuid(), id, 'oauth-staging', 'OAuth staging' FROM organization WHERE slug = 'demo'
     ON CONFLICT DO NOTHING`,
  );
  await sql().query(
    `INSERT INTO consumer (id, "environmentId", slug, name) SELECT gen_random_uuid(), e.id, 'staging-consumer', 'Staging consumer'
     FROM environment e JOIN organization o ON o.id = e."organizationId" WHERE o.slug = 'demo' AND e.slug = 'oauth-staging' ON CONFLICT DO NOTHING`,
  );
  const STAGING_URL = `${BASE}/public/mcp/demo/oauth-staging`;
  const production = await rawTokens(page, BASE, MCP_URL, USERS.admin, "demo-consumer");
  expect((await listToolsWith(MCP_URL, production.access_token!)).status).toBe(200);

  // A token of production on staging, and one of staging on production.
  const onStaging = await listToolsWith(STAGING_URL, production.access_token!);
  expect(onStaging.status).toBe(401);
  expect(onStaging.headers.get("www-authenticate")).toContain('error="invalid_token"');
  const staging = await rawTokens(page, BASE, STAGING_URL, USERS.admin, "staging-consumer");
  expect((await listToolsWith(MCP_URL, staging.access_token!)).status).toBe(401);

  // Refresh tokens rotate: the new pair works; the old refresh token, used again, is taken for
  // a stolen one and ends the whole grant (OAuth 2.1 section 4.3.1).
  const refreshed = await tokenRequest(BASE, { grant_type: "refresh_token", refresh_token: production.refresh_token!, client_id: production.clientId });
  expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  expect(refreshed.body.refresh_token).not.toBe(production.refresh_token);
  expect((await listToolsWith(MCP_URL, refreshed.body.access_token!)).status).toBe(200);
  const reused = await tokenRequest(BASE, { grant_type: "refresh_token", refresh_token: production.refresh_token!, client_id: production.clientId });
  expect(reused.status).toBe(400);
  expect((await listToolsWith(MCP_URL, refreshed.body.access_token!)).status).toBe(401);

  // Expired: its expiry set an hour back in the database (stored under the token's hash), beyond
  // any clock tolerance.
  expect((await listToolsWith(STAGING_URL, staging.access_token!)).status).toBe(200);
  const hash = createHash("sha256").update(`AccessToken:${staging.access_token}`).digest("hex");
  const updated = await sql().query(
    `UPDATE oauth_record SET payload = jsonb_set(payload, '{exp}', to_jsonb(extract(epoch FROM now())::int - 3600)) WHERE id = $1`,
    [hash],
  );
  expect(updated.rowCount).toBe(1);
  expect((await listToolsWith(STAGING_URL, staging.access_token!)).status).toBe(401);

  // Wrong audience at the token endpoint: a refresh of staging's grant asking for production.
  const other = await rawTokens(page, BASE, STAGING_URL, USERS.admin, "staging-consumer");
  const wrong = await tokenRequest(BASE, { grant_type: "refresh_token", refresh_token: other.refresh_token!, client_id: other.clientId, resource: MCP_URL });
  expect(wrong.status).toBe(400);
  expect(wrong.body.error).toBe("invalid_target");

  // Revoked by the client (RFC 7009): the token stops at once.
  expect((await listToolsWith(STAGING_URL, other.access_token!)).status).toBe(200);
  const revoke = await fetch(`${BASE}/oauth/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: other.access_token!, client_id: other.clientId }),
  });
  expect(revoke.status).toBe(200);
  expect((await listToolsWith(STAGING_URL, other.access_token!)).status).toBe(401);
});

test("only members of the organization can consent, and a token stops when its person leaves the organization", async ({ page }) => {
  const member = await createUser("designer", "oauth-leaver");
  const tokens = await rawTokens(page, BASE, MCP_URL, member, "other-consumer");
  expect((await listToolsWith(MCP_URL, tokens.access_token!)).status).toBe(200);
  await sql().query(`DELETE FROM membership WHERE "userId" = $1`, [member.id]);
  expect((await listToolsWith(MCP_URL, tokens.access_token!)).status).toBe(401);

  // Signed in as a person of no (or another) organization: the consent page refuses.
  const clientId = await registerClient(BASE);
  await page.goto(
    authorizeUrl(BASE, { client_id: clientId, redirect_uri: REDIRECT_URI, resource: MCP_URL, code_challenge: pkce().challenge, code_challenge_method: "S256" }),
  );
  await expect(page.getByRole("heading", { name: "Connect an AI client" })).toBeVisible();
  await expect(page.getByText("Only members of organization")).toBeVisible();
  await expect(page.getByRole("button", { name: "Allow" })).toHaveCount(0);
});

test("Deny sends access_denied back to the client and authorizes nothing", async ({ page }) => {
  await page.route("http://localhost:8976/**", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "back at the client" }));
  const clientId = await registerClient(BASE);
  await page.goto(
    authorizeUrl(BASE, { client_id: clientId, redirect_uri: REDIRECT_URI, resource: MCP_URL, code_challenge: pkce().challenge, code_challenge_method: "S256" }),
  );
  if (page.url().includes("/sign-in")) await signIn(page, USERS.admin.email, USERS.admin.password);
  await page.getByRole("button", { name: "Deny" }).click();
  await page.waitForURL(/^http:\/\/localhost:8976\/callback/);
  const back = new URL(page.url());
  expect([back.searchParams.get("error"), back.searchParams.get("code"), back.searchParams.get("state")]).toEqual(["access_denied", null, "s1"]);
  const { rows } = await sql().query(`SELECT count(*)::int AS n FROM oauth_authorization WHERE "clientId" = $1`, [clientId]);
  expect(rows[0].n).toBe(0);
});

test("the console lists authorized clients with their last use; revoking one makes its next call 401", async ({ page }) => {
  const tokens = await rawTokens(page, BASE, MCP_URL, USERS.admin, "other-consumer");
  expect((await listToolsWith(MCP_URL, tokens.access_token)).status).toBe(200);
  await page.goto(`${CONSOLE}/keys`);
  const row = page.getByRole("row").filter({ hasText: tokens.clientId });
  await expect(row).toContainText("raw test client");
  await expect(row).toContainText("Other consumer");
  await expect(row).toContainText(USERS.admin.email);
  await expect(row.getByRole("cell").nth(4)).not.toHaveText("Never");
  await row.getByRole("button", { name: "Revoke client raw test client" }).click();
  await page.getByRole("button", { name: "Revoke client" }).click();
  await expect(row).toContainText("Revoked");
  expect((await listToolsWith(MCP_URL, tokens.access_token)).status).toBe(401);
  const refreshed = await tokenRequest(BASE, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: tokens.clientId });
  expect(refreshed.status).toBe(400);
});

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`consent and console pages (${colorScheme})`, () => {
    test.use({ colorScheme });
    test("are accessible, cannot be framed, fit 390 px", async ({ page }) => {
      await mkdir(SHOTS, { recursive: true });
      const clientId = await registerClient(BASE);
      await page.goto(
        authorizeUrl(BASE, {
          client_id: clientId,
          redirect_uri: REDIRECT_URI,
          resource: MCP_URL,
          code_challenge: pkce().challenge,
          code_challenge_method: "S256",
        }),
      );
      await page.getByLabel("Email").fill(USERS.admin.email);
      await page.getByLabel("Password").fill(USERS.admin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("heading", { name: "Connect an AI client" })).toBeVisible();
      await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
      const headers = (await page.request.get(page.url())).headers();
      expect(headers["x-frame-options"]).toBe("DENY");
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      await expectAccessible(page, `consent (${colorScheme})`);
      await page.screenshot({ path: path.join(SHOTS, `consent-${colorScheme}.png`), fullPage: true, animations: "disabled" });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForFunction(() => document.documentElement.clientWidth <= 390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: path.join(SHOTS, `consent-${colorScheme}-390.png`), fullPage: true, animations: "disabled" });
      await page.setViewportSize({ width: 1280, height: 800 });

      for (const [name, to] of [
        ["console-keys", `${CONSOLE}/keys`],
        ["console-ai-access", `${CONSOLE}/ai-access`],
      ] as const) {
        await page.goto(to);
        await expect(page.locator("h1").first()).toBeVisible();
        await expectAccessible(page, `${name} (${colorScheme})`);
        await page.screenshot({ path: path.join(SHOTS, `${name}-${colorScheme}.png`), fullPage: true, animations: "disabled" });
      }
      await expect(page.getByRole("heading", { name: "By signing in (OAuth)" })).toBeVisible();
    });
  });
}

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs the conformance suite's `authorization` command; its checks, once it exits. `onOutput` sees its stdout as it comes. */
async function conformance(args: string[], onOutput: (text: string) => void = () => {}): Promise<{ id: string; status: string; errorMessage?: string }[]> {
  const out = await mkdtemp(path.join(os.tmpdir(), "oauth-conformance-"));
  const suite = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
  const child = spawn(process.execPath, [suite, "authorization", "--url", BASE, ...args, "-o", out], { stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout.on("data", (d: Buffer) => {
    text += d.toString();
    onOutput(text);
  });
  child.stderr.on("data", (d: Buffer) => (text += d.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  const files = fs.globSync(`${out}/**/checks.json`);
  expect(files.length, text).toBeGreaterThan(0);
  return files.flatMap((f) => JSON.parse(fs.readFileSync(f, "utf8")));
}

test("the MCP conformance suite's authorization server scenarios pass", async ({ page }) => {
  // Both scenarios in one run (the code grant reads the metadata the first one fetched). The
  // suite prints the authorization URL and waits on its own callback server for the code.
  const port = await freePort();
  const redirectUri = `http://127.0.0.1:${port}/callback`;
  const clientId = await registerClient(BASE, [redirectUri]);
  let authorizationUrl: (url: string) => void;
  const printed = new Promise<string>((resolve) => (authorizationUrl = resolve));
  const checks = conformance(["--client-id", clientId, "--resource", MCP_URL, "--port", String(port)], (text) => {
    const line = text.split("\n").find((l) => l.startsWith(`${BASE}/oauth/authorize?`));
    if (line) authorizationUrl(line.trim());
  });
  const url = await Promise.race([printed, checks.then((c) => Promise.reject(new Error(`the suite ended first: ${JSON.stringify(c)}`)))]);
  const back = await consentInBrowser(page, url, USERS.admin, "demo-consumer", redirectUri);
  expect(back.searchParams.get("error"), back.toString()).toBeNull();
  const all = await checks;
  expect(all.filter((c) => c.status !== "SUCCESS")).toEqual([]);
  expect(all.map((c) => c.id)).toEqual(expect.arrayContaining(["authorization-server-metadata", "authorization-code-grant"]));
});
