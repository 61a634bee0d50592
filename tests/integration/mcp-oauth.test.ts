/**
 * The MCP endpoint's authorization server over real HTTP (the browser flow itself is in
 * e2e/oauth.spec.ts): redirect URIs a client may register, an authorization request without
 * a resource, the `mcp` scope a token needs (the scope challenge), CORS for browser-based
 * clients, and an OAuth client downloading a result file too large to be answered inline by
 * its signed link, with the official SDK client.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, BASE_URL, download, resetRuns, sql } from "./helpers";
import { listToolsWith } from "../support/oauth-wire";
import { MCP_PATH, MCP_URL, textOf, withClient } from "./mcp-helpers";
import {
  authorizeAs,
  authorizeUrl,
  demoAdmin,
  oauthTokens,
  pkce,
  REDIRECT_URI,
  register,
  registeredClient,
  signedIn,
  tokenRequest,
  type CookieJar,
} from "./oauth-helpers";

const METADATA_URL = `${BASE_URL}/.well-known/oauth-protected-resource${MCP_PATH}`;
/** Western Europe: tens of thousands of cities, several MiB of GeoJSON. */
const EUROPE = {
  type: "Polygon",
  coordinates: [
    [
      [-10, 36],
      [20, 36],
      [20, 58],
      [-10, 58],
      [-10, 36],
    ],
  ],
};

let session: CookieJar;

beforeAll(async () => {
  await resetRuns();
  session = await signedIn(demoAdmin());
});

afterAll(async () => {
  const { db } = await import("@/lib/db");
  await db.$disconnect();
});

describe("dynamic client registration", () => {
  it("takes https redirect URIs, and http on loopback hosts only; anything else is invalid_redirect_uri (RFC 7591)", async () => {
    for (const uri of ["https://client.example/callback", "http://localhost:8976/callback", "http://127.0.0.1:53682/cb", "http://[::1]:9000/cb"]) {
      expect((await register({ redirect_uris: [uri] })).status, uri).toBe(201);
    }
    for (const uri of ["http://evil.example/cb", "http://localhost.evil.example/cb", "http://192.168.1.10/cb"]) {
      const res = await register({ redirect_uris: ["http://localhost:8976/callback", uri] });
      expect(res.status, uri).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body.error, uri).toBe("invalid_redirect_uri");
      expect(body.error_description).toContain(uri);
    }
    // A private-use scheme (RFC 8252): a native client's, never a web client's.
    expect((await register({ redirect_uris: ["com.example.app:/callback"], application_type: "native" })).status).toBe(201);
    expect((await register({ redirect_uris: ["com.example.app:/callback"] })).status).toBe(400);
  });

  it("does not send a client stored with an http redirect URI elsewhere (registered before the rule) anywhere", async () => {
    const clientId = `legacy-${Date.now()}`;
    const payload = {
      client_id: clientId,
      client_name: "registered before the rule",
      redirect_uris: ["http://evil.example/cb"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
    const id = createHash("sha256").update(`Client:${clientId}`).digest("hex");
    await sql().query(`INSERT INTO oauth_record (id, model, payload) VALUES ($1, 'Client', $2)`, [id, payload]);
    const res = await fetch(
      authorizeUrl({ client_id: clientId, redirect_uri: "http://evil.example/cb", code_challenge: pkce().challenge, resource: MCP_URL }),
      {
        redirect: "manual",
      },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });
});

describe("authorization requests", () => {
  it("without a resource are sent back to the client with invalid_target before anyone signs in (RFC 8707, RFC 6749 section 4.1.2.1)", async () => {
    const clientId = await registeredClient();
    const res = await fetch(authorizeUrl({ client_id: clientId, code_challenge: pkce().challenge }), { redirect: "manual" });
    expect([302, 303]).toContain(res.status);
    const back = new URL(res.headers.get("location")!);
    expect(back.toString().startsWith(REDIRECT_URI)).toBe(true);
    expect([back.searchParams.get("error"), back.searchParams.get("state"), back.searchParams.get("code")]).toEqual(["invalid_target", "s1", null]);
    // Signed in, the same: never the consent page.
    const signed = await authorizeAs(session, authorizeUrl({ client_id: clientId, code_challenge: pkce().challenge }));
    expect(signed.searchParams.get("error")).toBe("invalid_target");
  });
});

describe("the mcp scope", () => {
  it("is what a request without scope asks for; a token without it is refused with 403 and the scope challenge", async () => {
    const plain = await oauthTokens(session, MCP_URL, undefined);
    expect(plain.scope).toBe("mcp");
    expect((await listToolsWith(MCP_URL, plain.access_token!)).status).toBe(200);
    // A refresh token without offline_access: a client registered with the refresh_token grant gets one (README).
    expect(plain.refresh_token).toBeTruthy();

    const openidOnly = await oauthTokens(session, MCP_URL, "openid");
    expect(openidOnly.scope ?? "").not.toContain("mcp");
    const refused = await listToolsWith(MCP_URL, openidOnly.access_token!);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toMatch(
      new RegExp(`^Bearer error="insufficient_scope", scope="mcp", resource_metadata="${METADATA_URL.replace(/[.]/g, "\\.")}", error_description="[^"]+"$`),
    );
    expect(await refused.json()).toMatchObject({ status: 403, code: "forbidden" });
    // Its refresh gives no more than was asked for.
    const refreshed = await tokenRequest({ grant_type: "refresh_token", refresh_token: openidOnly.refresh_token!, client_id: openidOnly.client_id! });
    expect(refreshed.status).toBe(200);
    expect((await listToolsWith(MCP_URL, refreshed.body.access_token!)).status).toBe(403);
  });

  it("is named by the 401 challenge, as the protected resource metadata names it", async () => {
    const res = await fetch(MCP_URL, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${METADATA_URL}", scope="mcp"`);
    expect(await (await fetch(METADATA_URL)).json()).toMatchObject({ resource: MCP_URL, scopes_supported: ["mcp"] });
  });
});

describe("browser-based clients (CORS)", () => {
  const origin = "http://localhost:6274";
  it("get their preflights answered on the metadata, registration and token endpoints", async () => {
    for (const [path, method] of [
      ["/oauth/register", "POST"],
      ["/oauth/token", "POST"],
      ["/.well-known/oauth-authorization-server", "GET"],
      [`/.well-known/oauth-protected-resource${MCP_PATH}`, "GET"],
    ] as const) {
      const res = await fetch(BASE_URL + path, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": method, "access-control-request-headers": "content-type" },
      });
      expect(res.status, path).toBe(204);
      expect([origin, "*"], path).toContain(res.headers.get("access-control-allow-origin"));
      expect(res.headers.get("access-control-allow-methods"), path).toContain(method);
      if (method === "POST") expect(res.headers.get("access-control-allow-headers")?.toLowerCase(), path).toContain("content-type");
    }
  });

  it("can read the registration answer, a refusal included", async () => {
    const ok = await register({ redirect_uris: ["http://localhost:6274/oauth/callback"] }, { origin });
    expect(ok.status).toBe(201);
    expect(ok.headers.get("access-control-allow-origin")).toBe(origin);
    const refused = await register({ redirect_uris: ["http://evil.example/cb"] }, { origin });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("access-control-allow-origin")).toBe(origin);
  });
});

describe("result files for an OAuth client", () => {
  it("are downloadable by the signed link run_result gives, with no key or token, equal to the key's download", async () => {
    const { access_token: token } = await oauthTokens(session, MCP_URL, "mcp");
    await withClient({ key: token!, bearer: true }, async (c) => {
      const run = await c.callTool({
        name: "cities_in_area",
        arguments: { cities: { layer_id: "world-cities" }, area: { area: EUROPE }, min_population: 0, wait_seconds: 55 },
      });
      const doc = run.structuredContent as any;
      expect(doc.state).toBe("completed");
      expect(doc.next).toMatch(/run_result/);
      const cities = doc.results.find((r: any) => r.key === "cities");
      expect(cities.size_bytes).toBeGreaterThan(1024 * 1024);

      const result = await c.callTool({ name: "run_result", arguments: { run_id: doc.run_id, key: "cities" } });
      expect(result.isError).toBeFalsy();
      const file = result.structuredContent as any;
      expect(file.inline).toBe(false);
      const text = textOf(result);
      expect(text).toContain(file.url);
      expect(text).toMatch(/needs no API key or token/);
      expect(text).not.toMatch(/X-Api-Key/);
      const link = (result.content as any[]).find((b) => b.type === "resource_link");
      expect(link.uri).toBe(file.url);
      expect(Date.parse(file.url_expires_at)).toBeGreaterThan(Date.now());

      const viaLink = await fetch(file.url);
      expect(viaLink.status).toBe(200);
      expect(viaLink.headers.get("content-type")).toBe("application/geo+json");
      const withKey = await download(`${apiPath("cities-in-area")}/runs/${doc.run_id}/results/cities`);
      expect(withKey.status).toBe(200);
      expect(Buffer.from(await viaLink.arrayBuffer()).equals(withKey.bytes)).toBe(true);
      // The token itself still cannot download (the HTTP door takes API keys), and needs not.
      expect((await fetch(file.url.split("?")[0], { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    });
  });
});
