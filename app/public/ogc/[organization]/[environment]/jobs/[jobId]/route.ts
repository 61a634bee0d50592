import { otherMethods } from "@/lib/http/public-route";
import { ogcRoute, ZOgcJobPath, ZOgcPath } from "@/lib/ogc/ogc-route";
import { ogcRunDocument, statusAnswer } from "@/lib/ogc/answers";
import { cancelRun } from "@/lib/runs/cancel-run";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";

export const dynamic = "force-dynamic";

// GET /public/ogc/{organization}/{environment}/jobs/{jobId} - the job's status info
export const GET = ogcRoute({ params: ZOgcJobPath, caller: "job", notFound: "no-such-job" }, async ({ params, place, caller }) =>
  statusAnswer(ogcRunDocument(caller, await getRunOrThrow(caller.scope, params.jobId)), place),
);

// DELETE /public/ogc/{organization}/{environment}/jobs/{jobId} - dismiss (cancel) the job
export const DELETE = ogcRoute({ params: ZOgcJobPath, caller: "job", notFound: "no-such-job" }, async ({ params, place, caller }) =>
  statusAnswer(ogcRunDocument(caller, await cancelRun(caller.scope, params.jobId)), place),
);

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH } = otherMethods(ZOgcPath, ["GET", "DELETE"]);
