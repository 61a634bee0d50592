/**
 * The origin (`scheme://host[:port]`) a client used to reach us, for absolute URLs in
 * documents we serve (OpenAPI `servers`, docs examples). `PUBLIC_BASE_URL` wins when set;
 * otherwise the `Host` header (and `X-Forwarded-Proto`/`X-Forwarded-Host` behind a proxy).
 *
 * A response whose body embeds a request-derived origin differs by those headers, which are
 * not part of a cache's key (the URL): a shared cache would hand one client's
 * `X-Forwarded-Host` to everyone (cache poisoning; RFC 9111 section 4.1 and RFC 9110
 * section 12.5.5 on `Vary`). `originCacheHeaders` therefore allows shared caching only of an
 * origin taken from `PUBLIC_BASE_URL`.
 */

/** The request headers a request-derived origin is read from. */
export const ORIGIN_HEADERS = ["Host", "X-Forwarded-Host", "X-Forwarded-Proto"] as const;

export function requestOrigin(headers: Headers, fallback: string): string {
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (!host || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return fallback;
  const proto = headers.get("x-forwarded-proto") === "https" ? "https" : new URL(fallback).protocol.replace(":", "");
  return `${proto}://${host}`;
}

export interface TPublicOrigin {
  /** `scheme://host[:port]`, no trailing slash. */
  origin: string;
  /** True when read from the request's headers rather than configured. */
  fromRequest: boolean;
}

/** `publicBaseUrl` (the `PUBLIC_BASE_URL` setting) without its trailing slash when set, else the request's origin. */
export function publicOrigin(headers: Headers, fallback: string, publicBaseUrl: string | undefined): TPublicOrigin {
  if (publicBaseUrl) return { origin: publicBaseUrl.replace(/\/+$/, ""), fromRequest: false };
  return { origin: requestOrigin(headers, fallback), fromRequest: true };
}

/**
 * `Cache-Control` (and `Vary`) of a document that embeds `origin`, fresh for `maxAgeSeconds`:
 * `public` when the origin is configured; `private` when it came from the request, so no
 * shared cache stores it. `Vary` alone would not do: caches that ignore or normalise `Vary`
 * (several CDNs key only on `Accept-Encoding`) would still serve a poisoned copy. The `Vary`
 * still added keeps a browser's own cache honest should a proxy's headers change.
 */
export function originCacheHeaders(origin: TPublicOrigin, maxAgeSeconds: number): Record<string, string> {
  if (!origin.fromRequest) return { "cache-control": `public, max-age=${maxAgeSeconds}` };
  return { "cache-control": `private, max-age=${maxAgeSeconds}`, vary: ORIGIN_HEADERS.join(", ") };
}
