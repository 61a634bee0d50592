import { otherMethods } from "@/lib/http/public-route";
import { ogcRoute, ZOgcJobPath, ZOgcPath } from "@/lib/ogc/ogc-route";
import { jobResultsAnswer, ogcRunDocument } from "@/lib/ogc/answers";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";

export const dynamic = "force-dynamic";

// GET /public/ogc/{organization}/{environment}/jobs/{jobId}/results - the results of a successful job
export const GET = ogcRoute({ params: ZOgcJobPath, caller: "job", notFound: "no-such-job" }, async ({ params, place, caller }) =>
  jobResultsAnswer(ogcRunDocument(caller, await getRunOrThrow(caller.scope, params.jobId)), place),
);

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZOgcPath, ["GET"]);
