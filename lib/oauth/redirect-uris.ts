/**
 * Which redirect URIs an OAuth client of the MCP endpoint may register, whether by dynamic
 * client registration (RFC 7591) or in a Client ID Metadata Document: OAuth 2.1
 * (draft-ietf-oauth-v2-1, "Redirect URI" and "Loopback Interface Redirection"), RFC 8252
 * section 7 and the MCP authorization specification ("Communication Security": redirect URIs
 * are localhost or HTTPS), so an authorization code never travels in clear text across a
 * network:
 *
 * - `https:` on any host;
 * - `http:` only on a loopback host, `localhost`, `127.0.0.1` or `[::1]` (any port: a native
 *   client listens on whichever port it got);
 * - a private-use URI scheme (RFC 8252 section 7.1, `com.example.app:/callback`) only for a
 *   client registered with `application_type` "native" (oidc-provider then also requires a
 *   reverse-domain scheme); a web client's is refused.
 *
 * `redirectUriRefusal(uri, applicationType)` answers why a URI is refused, or null. The
 * authorization server refuses such a registration with RFC 7591's `invalid_redirect_uri`,
 * and an authorization request of a client stored with one (registered before this rule) as
 * an unknown client (lib/oauth/provider.ts).
 */

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Why `uri` may not be a redirect URI of a client of `applicationType`, or null when it may. */
export function redirectUriRefusal(uri: string, applicationType: unknown): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `The redirect URI "${uri}" is not an absolute URI.`;
  }
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:") {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? null
      : `The redirect URI "${uri}" uses http on a host that is not loopback: use https, or http only on localhost, 127.0.0.1 or [::1].`;
  }
  return applicationType === "native"
    ? null
    : `The redirect URI "${uri}" uses the scheme "${url.protocol.slice(0, -1)}": a web client redirects to https (or http on localhost); a private-use scheme needs application_type "native".`;
}
