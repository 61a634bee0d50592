import { publicRoute, ZApiPath } from "@/lib/api/public-route";
import { readJsonBody } from "@/lib/api/read-json-body";
import { validateRunRequest } from "@/lib/runs/validate-request";
import { createRun } from "@/lib/runs/create-run";
import { runResponse } from "@/lib/runs/run-response";
import { listRuns, nextLink, parseListQuery } from "@/lib/runs/list-runs";
import { apiBasePath } from "@/lib/runs/run-document";

export const dynamic = "force-dynamic";

// POST /public/api/{organization}/{environment}/{api}/runs - start a run (202, or 200 when it finishes within wait_seconds)
export const POST = publicRoute({ params: ZApiPath, metering: "handler", requiresWorker: true }, async ({ req, params, caller }) => {
  const body = await readJsonBody(req);
  const request = validateRunRequest(caller.flow, body);
  const { runId, created } = await createRun(caller, request, req.headers.get("idempotency-key"));
  return runResponse(caller, params, runId, request.waitSeconds, created);
});

// GET /public/api/{organization}/{environment}/{api}/runs - list the consumer's runs, newest first (?state=, ?limit=, ?cursor=)
export const GET = publicRoute({ params: ZApiPath }, async ({ req, params, caller }) => {
  const query = parseListQuery(new URL(req.url).searchParams);
  const page = await listRuns(caller, params, query);
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  const link = nextLink(apiBasePath(params), query, page.next_cursor);
  if (link) headers.link = link;
  return new Response(JSON.stringify(page), { status: 200, headers });
});
