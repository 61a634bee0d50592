/**
 * The RFC 9728 protected resource metadata document of one environment's MCP endpoint, as
 * a response: 200 JSON (readable cross-origin: browser-based MCP clients fetch it), or 404
 * when the environment does not exist or the host is not one the service answers to.
 */
import "server-only";
import { environmentExists } from "@/lib/oauth/known-environment";
import { issuerOf } from "@/lib/oauth/provider";
import { protectedResourceMetadata, type TEnvironmentPath } from "@/lib/oauth/resource";

const CORS = { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, OPTIONS", "access-control-allow-headers": "*" };

/** The metadata response (see module doc). */
export async function protectedResourceMetadataResponse(req: Request, path: TEnvironmentPath): Promise<Response> {
  if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
  const issuer = issuerOf(req);
  const known = issuer && (await environmentExists(path));
  if (!known) return Response.json({ error: "not_found" }, { status: 404, headers: CORS });
  return Response.json(protectedResourceMetadata(issuer, path), { headers: { ...CORS, "cache-control": "private, max-age=300" } });
}
