import { z } from "zod";
import { otherMethods, publicRoute, ZApiPath } from "@/lib/http/public-route";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import { runJson } from "@/lib/http/run-response";

export const dynamic = "force-dynamic";

const ZParams = ZApiPath.extend({ runId: z.string() });

// GET /public/api/{organization}/{environment}/{api}/runs/{run_id} - the run and its state
export const GET = publicRoute({ params: ZParams }, async ({ params, caller }) => {
  const run = await getRunOrThrow(caller.scope, params.runId);
  return runJson(caller, run, 200);
});

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZParams, ["GET"]);
