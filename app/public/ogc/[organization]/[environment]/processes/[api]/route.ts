import { otherMethods } from "@/lib/http/public-route";
import { AppError } from "@/lib/errors";
import { ogcRoute, ZOgcProcessPath, ZOgcPath } from "@/lib/ogc/ogc-route";
import { resolveKeyCaller } from "@/lib/keys/resolve-key-caller";
import { processDescription } from "@/lib/ogc/process-description";
import { readableLayersOf } from "@/lib/layers/list-layers";

export const dynamic = "force-dynamic";

// GET /public/ogc/{organization}/{environment}/processes/{api} - the process description of a published API
export const GET = ogcRoute({ params: ZOgcProcessPath, caller: "environment", notFound: "no-such-process" }, async ({ req, params, place, ogc }) => {
  const api = ogc.apis.find((a) => a.path.api === params.api);
  if (!api) {
    // Not granted (403) or not published (404), exactly as the HTTP door answers.
    await resolveKeyCaller(params, req.headers.get("x-api-key"));
    throw new AppError("not_found", `No process "${params.api}".`);
  }
  const source = { slug: api.path.api, name: api.name, description: api.description, flowVersion: api.target.flowVersionNumber, flow: api.target.flow };
  // Read per request, not cached with the key: an admin's grant of a layer shows at once.
  const readable = await readableLayersOf({ environmentId: ogc.environmentId, workspaceId: api.target.workspaceId });
  return Response.json(processDescription(source, place.base, readable), { headers: { "cache-control": "no-store" } });
});

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZOgcPath, ["GET"]);
