import { otherMethods } from "@/lib/http/public-route";
import { ogcRoute, ZOgcJobPath, ZOgcPath } from "@/lib/ogc/ogc-route";
import { jobResultsAnswer, ogcRunDocument } from "@/lib/ogc/answers";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";

export const dynamic = "force-dynamic";

// GET /public/ogc/{organization}/{environment}/jobs/{jobId}/results - the results of a successful job, as its execute request asked
export const GET = ogcRoute({ params: ZOgcJobPath, caller: "job", notFound: "no-such-job" }, async ({ params, place, caller }) => {
  const run = await getRunOrThrow(caller.scope, params.jobId);
  return jobResultsAnswer(ogcRunDocument(caller, run), place, run.ogcAnswer);
});

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZOgcPath, ["GET"]);
