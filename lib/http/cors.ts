/**
 * CORS (the Fetch standard's CORS protocol) for browser callers of the public API. Which
 * origins may call is configured per environment (lib/keys/cors-origins.ts; default none).
 *
 * - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from an
 *   allowed origin: 204 with `Access-Control-Allow-Origin` (that origin), `-Allow-Methods`
 *   (the route's), `-Allow-Headers` (`CORS_ALLOW_HEADERS`), `-Max-Age`. From any other origin:
 *   204 without them, so the browser refuses the call.
 * - Any other answer to an allowed origin carries `Access-Control-Allow-Origin` and
 *   `-Expose-Headers` (`CORS_EXPOSE_HEADERS`). Credentials (cookies) are never allowed: the
 *   key travels in a header.
 * - Every answer that depends on `Origin` says `Vary: Origin`.
 */
import "server-only";
import { corsOrigins } from "@/lib/keys/cors-origins";

export const CORS_ALLOW_HEADERS = "X-Api-Key, Authorization, Content-Type, Idempotency-Key, If-None-Match, Prefer";
export const CORS_EXPOSE_HEADERS = "Location, Retry-After, RateLimit, RateLimit-Policy, ETag, Content-Disposition, Link, Preference-Applied";
const MAX_AGE_SECONDS = 600;

/** True when `origin` may call `{organization}/{environment}` from a browser. */
export async function originAllowed(origin: string | null, organization: string, environment: string): Promise<boolean> {
  if (!origin) return false;
  const allowed = await corsOrigins(organization, environment);
  return allowed.includes("*") || allowed.includes(origin);
}

/** Headers for a non-preflight answer to `origin` (empty when it is not allowed). */
export async function corsHeaders(origin: string | null, path: { organization: string; environment: string }): Promise<Record<string, string>> {
  if (!origin) return {};
  if (!(await originAllowed(origin, path.organization, path.environment))) return { vary: "Origin" };
  return { "access-control-allow-origin": origin, "access-control-expose-headers": CORS_EXPOSE_HEADERS, vary: "Origin" };
}

/** The answer to `OPTIONS` on a route serving `methods`: a CORS preflight, or plain `Allow`. */
export async function preflight(req: Request, path: { organization: string; environment: string } | null, methods: readonly string[]): Promise<Response> {
  const allow = allowHeader(methods);
  const origin = req.headers.get("origin");
  const headers: Record<string, string> = { allow, "cache-control": "no-store" };
  if (origin && req.headers.get("access-control-request-method") && path && (await originAllowed(origin, path.organization, path.environment))) {
    Object.assign(headers, {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": methods.join(", "),
      "access-control-allow-headers": CORS_ALLOW_HEADERS,
      "access-control-max-age": String(MAX_AGE_SECONDS),
    });
  }
  if (origin) headers.vary = "Origin";
  return new Response(null, { status: 204, headers });
}

/** The `Allow` field (RFC 9110 section 10.2.1) of a route serving `methods`: HEAD with GET, and OPTIONS. */
export function allowHeader(methods: readonly string[]): string {
  return [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
}
