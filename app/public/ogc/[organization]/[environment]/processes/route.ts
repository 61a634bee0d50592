import { otherMethods } from "@/lib/http/public-route";
import { ogcRoute, ZOgcPath } from "@/lib/ogc/ogc-route";
import { processSummary } from "@/lib/ogc/process-description";

export const dynamic = "force-dynamic";

// GET /public/ogc/{organization}/{environment}/processes - the processes (published APIs) the key may run
export const GET = ogcRoute({ params: ZOgcPath, caller: "environment" }, async ({ place, ogc }) =>
  Response.json(
    {
      processes: ogc.apis.map((a) =>
        processSummary(
          { slug: a.path.api, name: a.name, description: a.description, flowVersion: a.target.flowVersionNumber, flow: a.target.flow },
          place.base,
        ),
      ),
      links: [{ href: `${place.base}/processes`, rel: "self", type: "application/json" }],
    },
    { headers: { "cache-control": "no-store" } },
  ),
);

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZOgcPath, ["GET"]);
