import { publicRoute, ZApiPath } from "@/lib/api/public-route";
import { readJsonBody } from "@/lib/api/read-json-body";
import { validateRunRequest } from "@/lib/runs/validate-request";
import { createRun } from "@/lib/runs/create-run";
import { runResponse } from "@/lib/runs/run-response";

export const dynamic = "force-dynamic";

// POST /public/api/{organization}/{environment}/{api}/runs - start a run (202, or 200 when it finishes within wait_seconds)
export const POST = publicRoute({ params: ZApiPath, metering: "handler" }, async ({ req, params, caller }) => {
  const body = await readJsonBody(req);
  const request = validateRunRequest(caller.flow, body);
  const { runId } = await createRun(caller, request, req.headers.get("idempotency-key"));
  return runResponse(caller, params, runId, request.waitSeconds);
});

