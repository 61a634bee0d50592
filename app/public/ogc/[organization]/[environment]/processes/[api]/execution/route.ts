import { otherMethods } from "@/lib/http/public-route";
import { executeAnswer } from "@/lib/ogc/answers";
import { ogcRoute, ZOgcProcessPath, ZOgcPath } from "@/lib/ogc/ogc-route";
import { ZExecuteRequest } from "@/lib/ogc/execute-request";
import { parameterInputIds } from "@/lib/ogc/process-description";

export const dynamic = "force-dynamic";

// POST /public/ogc/{organization}/{environment}/processes/{api}/execution - execute (sync, or async with Prefer: respond-async)
export const POST = ogcRoute(
  { params: ZOgcProcessPath, caller: "process", body: ZExecuteRequest, metered: "call", requiresWorker: true, notFound: "no-such-process" },
  async ({ req, body, place, caller }) => executeAnswer(caller, place, req, body, parameterInputIds(caller.target.flow)),
);

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(ZOgcPath, ["POST"]);
