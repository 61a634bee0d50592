import { otherMethods } from "@/lib/http/public-route";
import { ogcRoute, ZOgcPath } from "@/lib/ogc/ogc-route";
import { OGC_CONFORMANCE } from "@/lib/ogc/conformance";

export const dynamic = "force-dynamic";

// GET /public/ogc/{organization}/{environment}/conformance - the conformance classes implemented
export const GET = ogcRoute({ params: ZOgcPath, caller: "none" }, async () => Response.json({ conformsTo: OGC_CONFORMANCE }));

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZOgcPath, ["GET"]);
