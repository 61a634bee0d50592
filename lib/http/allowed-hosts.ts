/**
 * The host names the service answers to on its MCP endpoint and OAuth authorization server
 * (DNS-rebinding protection, MCP "Security Warning" of the Streamable HTTP transport; and the
 * issuers the authorization server may take from a request's Host): `localhost`,
 * `127.0.0.1`, `[::1]`, the host of `PUBLIC_BASE_URL` and those in `MCP_ALLOWED_HOSTS`.
 */
import "server-only";
import { env } from "@/lib/env";

/** Host names (see module doc), lower-case, without ports. */
export function allowedHostnames(): string[] {
  const names = new Set(["localhost", "127.0.0.1", "[::1]"]);
  const base = env().PUBLIC_BASE_URL;
  if (base) names.add(new URL(base).hostname);
  for (const h of (env().MCP_ALLOWED_HOSTS ?? "").split(",")) if (h.trim()) names.add(h.trim().toLowerCase());
  return [...names];
}
