/**
 * The MCP endpoint's OAuth flow over plain HTTP, for integration tests (the browser tests in
 * e2e/oauth.spec.ts drive the same pages in Chromium): a person signs in through next-auth's
 * own endpoints, a client registers (RFC 7591), sends an authorization request with PKCE
 * (S256), the person allows it on the consent page (its real form: the form token read from
 * the page, the Origin of the service), and the client exchanges the code for tokens.
 * Redirects are followed by hand, with a cookie jar, so each step's answer can be looked at.
 */
import { expect } from "vitest";
import { exchangeCode, pkce, tokenRequest as postToken } from "../support/oauth-wire";
import { BASE_URL, sql } from "./helpers";

export { pkce } from "../support/oauth-wire";

/** Where the test clients say they are redirected to; nothing listens there, the tests read the redirect itself. */
export const REDIRECT_URI = "http://127.0.0.1:9/callback";

/** Cookies by name, as a browser on the service's one origin would keep them (paths aside). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Keeps the cookies `res` sets (and forgets those it expires). */
  absorb(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  copy(): CookieJar {
    const jar = new CookieJar();
    for (const [k, v] of this.cookies) jar.cookies.set(k, v);
    return jar;
  }
}

/** A fetch with the jar's cookies, no redirect followed; the jar keeps what it sets. */
export async function jarFetch(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(new URL(url, BASE_URL), {
    ...init,
    redirect: "manual",
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.absorb(res);
  return res;
}

/** Signs `user` in through next-auth's credentials endpoint; the jar holding the session. */
export async function signedIn(user: { email: string; password: string }): Promise<CookieJar> {
  const jar = new CookieJar();
  const { csrfToken } = (await (await jarFetch(jar, "/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await jarFetch(jar, "/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email: user.email, password: user.password, callbackUrl: `${BASE_URL}/` }),
  });
  expect(res.status).toBe(302);
  const session = (await (await jarFetch(jar, "/api/auth/session")).json()) as { user?: { email?: string } } | null;
  expect(session?.user?.email).toBe(user.email);
  return jar;
}

/** The demo admin of the test database (scripts/test.ts sets the credentials). */
export function demoAdmin(): { email: string; password: string } {
  return { email: process.env.DEMO_ADMIN_EMAIL!, password: process.env.DEMO_ADMIN_PASSWORD! };
}

/** Registers a public client (RFC 7591); the response. */
export async function register(metadata: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${BASE_URL}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ client_name: "integration test client", token_endpoint_auth_method: "none", ...metadata }),
  });
}

/** Registers a public client redirecting to `REDIRECT_URI`; its client_id. */
export async function registeredClient(): Promise<string> {
  const res = await register({ redirect_uris: [REDIRECT_URI], grant_types: ["authorization_code", "refresh_token"] });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** An authorization request URL; `params` adds or (with undefined) leaves out parameters. */
export function authorizeUrl(params: Record<string, string | undefined>): string {
  const all: Record<string, string | undefined> = { response_type: "code", redirect_uri: REDIRECT_URI, state: "s1", code_challenge_method: "S256", ...params };
  const query = new URLSearchParams(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
  return `${BASE_URL}/oauth/authorize?${query}`;
}

/** The id of a consumer of demo/production by slug. */
async function consumerId(slug: string): Promise<string> {
  const { rows } = await sql().query(
    `SELECT c.id FROM consumer c JOIN environment e ON e.id = c."environmentId" JOIN organization o ON o.id = e."organizationId"
     WHERE o.slug = 'demo' AND e.slug = 'production' AND c.slug = $1`,
    [slug],
  );
  return rows[0].id;
}

/**
 * Follows an authorization request as the signed-in browser of `session` would, allowing it
 * as `consumer` on the consent page; the redirect to the client (with `code` or `error`).
 */
export async function authorizeAs(session: CookieJar, url: string, consumer = "demo-consumer"): Promise<URL> {
  const jar = session.copy();
  let location = url;
  for (let hop = 0; hop < 10; hop++) {
    if (location.startsWith(REDIRECT_URI)) return new URL(location);
    const consent = new URL(location, BASE_URL).pathname.match(/^\/oauth\/consent\/([^/]+)$/);
    let res: Response;
    if (consent) {
      const page = await jarFetch(jar, location);
      const html = await page.text();
      const formToken = html.match(/name="form_token" value="([^"]+)"/)?.[1];
      expect(formToken, html.slice(0, 2000)).toBeTruthy();
      res = await jarFetch(jar, `/oauth/consent/${consent[1]}/decision`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE_URL },
        body: new URLSearchParams({ form_token: formToken!, consumer: await consumerId(consumer), decision: "allow" }),
      });
    } else {
      res = await jarFetch(jar, location);
    }
    const next = res.headers.get("location");
    expect(next, `${res.status} at ${location}: ${await res.text()}`).toBeTruthy();
    location = new URL(next!, BASE_URL).toString();
  }
  throw new Error(`no redirect to the client after 10 hops (at ${location})`);
}

/** POSTs to the test app's token endpoint; status and JSON body. */
export function tokenRequest(form: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  return postToken(BASE_URL, form);
}

/** The whole flow for `resource` with `scope` (undefined: none named); the token response. */
export async function oauthTokens(session: CookieJar, resource: string, scope: string | undefined): Promise<Record<string, string>> {
  const clientId = await registeredClient();
  const { verifier, challenge } = pkce();
  const back = await authorizeAs(session, authorizeUrl({ client_id: clientId, code_challenge: challenge, resource, scope }));
  const code = back.searchParams.get("code");
  expect(code, back.toString()).toBeTruthy();
  const token = await exchangeCode(BASE_URL, { code: code!, clientId, verifier, resource, redirectUri: REDIRECT_URI });
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return { ...token.body, client_id: clientId };
}
