import { z } from "zod";
import { otherMethods, publicRoute, ZApiPath } from "@/lib/http/public-route";
import { cancelRun } from "@/lib/runs/cancel-run";
import { runJson } from "@/lib/http/run-response";

export const dynamic = "force-dynamic";

const ZParams = ZApiPath.extend({ runId: z.string() });

// POST /public/api/{organization}/{environment}/{api}/runs/{run_id}/cancel - cancel a run that has not finished
export const POST = publicRoute({ params: ZParams }, async ({ params, caller }) => {
  const run = await cancelRun(caller.scope, params.runId);
  return runJson(caller, run, 200);
});

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(ZParams, ["POST"]);
