/**
 * The origin (`scheme://host[:port]`) a client used to reach us, for absolute URLs in
 * documents we serve (OpenAPI `servers`, docs examples). `PUBLIC_BASE_URL` wins when set;
 * otherwise the `Host` header (and `X-Forwarded-Proto`/`X-Forwarded-Host` behind a proxy).
 */
export function requestOrigin(headers: Headers, fallback: string): string {
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (!host || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return fallback;
  const proto = headers.get("x-forwarded-proto") === "https" ? "https" : new URL(fallback).protocol.replace(":", "");
  return `${proto}://${host}`;
}
