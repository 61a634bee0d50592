import { otherMethods } from "@/lib/http/public-route";
import { ogcRoute, ZOgcPath } from "@/lib/ogc/ogc-route";
import { landingPage } from "@/lib/ogc/conformance";

export const dynamic = "force-dynamic";

// GET /public/ogc/{organization}/{environment} - the OGC API - Processes landing page
export const GET = ogcRoute({ params: ZOgcPath, caller: "none" }, async ({ params, place }) =>
  Response.json(landingPage(place.base, params.environment), { headers: { "cache-control": "no-store" } }),
);

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZOgcPath, ["GET"]);
