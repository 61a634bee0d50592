/**
 * The protected resources of the authorization server: one per environment, its MCP
 * endpoint `{origin}/public/mcp/{organization}/{environment}` (RFC 8707 resource indicator,
 * and the `aud` of every access token issued for it), and where each one's RFC 9728
 * protected resource metadata is served: the path-aware well-known URL
 * `{origin}/.well-known/oauth-protected-resource/public/mcp/{organization}/{environment}`,
 * which the MCP authorization specification and the SDK clients look up.
 */
import { getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/server";

/** Scope of the MCP endpoint (the only one): everything the chosen consumer may do. */
export const MCP_SCOPE = "mcp";
const SLUG = "[a-z0-9](?:[a-z0-9-]*[a-z0-9])?";
const RESOURCE_PATH = new RegExp(`^/public/mcp/(${SLUG})/(${SLUG})$`);

export interface TEnvironmentPath {
  organization: string;
  environment: string;
}

/** The MCP endpoint (resource indicator) of an environment. */
export function mcpResourceUrl(origin: string, path: TEnvironmentPath): string {
  return `${origin}/public/mcp/${path.organization}/${path.environment}`;
}

/** The environment a resource indicator names on `origin`, or null when it names none. */
export function parseMcpResource(origin: string, resource: unknown): TEnvironmentPath | null {
  if (typeof resource !== "string") return null;
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.search || url.hash) return null;
  const m = url.pathname.match(RESOURCE_PATH);
  return m ? { organization: m[1]!, environment: m[2]! } : null;
}

/** Where the protected resource metadata of an environment's MCP endpoint is served. */
export function resourceMetadataUrl(origin: string, path: TEnvironmentPath): string {
  return getOAuthProtectedResourceMetadataUrl(new URL(mcpResourceUrl(origin, path)));
}

/** RFC 9728 protected resource metadata of an environment's MCP endpoint. */
export function protectedResourceMetadata(origin: string, path: TEnvironmentPath) {
  return {
    resource: mcpResourceUrl(origin, path),
    authorization_servers: [origin],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ["header"],
    resource_name: `Flow APIs of ${path.organization}/${path.environment}`,
  };
}
