import { ZApiPath, errorResponse, otherMethods } from "@/lib/http/public-route";
import { problem } from "@/lib/http/problem";
import { publishedOpenApi } from "@/lib/openapi/published-api";
import { originCacheHeaders, publicOrigin } from "@/lib/http/request-origin";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

// GET /public/api/{organization}/{environment}/{api}/openapi.json - the API's OpenAPI 3.1 document (public, no key; 404 unless published)
export async function GET(req: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> {
  const url = new URL(req.url);
  try {
    const path = ZApiPath.safeParse(await ctx.params);
    // Its `servers` URL embeds the origin: shared caches may keep it only when PUBLIC_BASE_URL names it.
    const origin = publicOrigin(req.headers, url.origin, env().PUBLIC_BASE_URL);
    const doc = path.success ? await publishedOpenApi(path.data, origin.origin) : null;
    if (!doc) return problem("not_found", "No API is published at this address.", { instance: url.pathname });
    return new Response(JSON.stringify(doc), {
      status: 200,
      headers: { "content-type": "application/vnd.oai.openapi+json;version=3.1", ...originCacheHeaders(origin, 60), "access-control-allow-origin": "*" },
    });
  } catch (err) {
    return errorResponse(err, url.pathname);
  }
}

// OPTIONS and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZApiPath, ["GET"]);
