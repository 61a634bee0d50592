import { otherMethods } from "@/lib/http/public-route";
import { ogcRoute, ZOgcPath } from "@/lib/ogc/ogc-route";
import { ogcOpenApi } from "@/lib/ogc/openapi";

export const dynamic = "force-dynamic";

// GET /public/ogc/{organization}/{environment}/api - the OpenAPI 3.0 document of this door
export const GET = ogcRoute({ params: ZOgcPath, caller: "none" }, async ({ params, place }) =>
  Response.json(ogcOpenApi(place.base, params.environment), {
    headers: { "content-type": "application/vnd.oai.openapi+json;version=3.0", "cache-control": "no-store" },
  }),
);

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZOgcPath, ["GET"]);
