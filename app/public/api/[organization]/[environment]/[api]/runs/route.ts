import { otherMethods, publicRoute, ZApiPath } from "@/lib/http/public-route";
import { readJsonBody } from "@/lib/http/read-json-body";
import { keyRunLinks, nextLink, runResponse } from "@/lib/http/run-response";
import { validateRunRequest } from "@/lib/runs/validate-request";
import { createRun } from "@/lib/runs/create-run";
import { listRuns, parseListQuery } from "@/lib/runs/list-runs";

export const dynamic = "force-dynamic";

// POST /public/api/{organization}/{environment}/{api}/runs - start a run (202, or 200 when it finishes within wait_seconds)
export const POST = publicRoute({ params: ZApiPath, metering: "handler", requiresWorker: true }, async ({ req, caller }) => {
  const body = await readJsonBody(req);
  const request = validateRunRequest(caller.target.flow, body);
  const { runId, created } = await createRun(caller.scope, caller.target, request, req.headers.get("idempotency-key"));
  return runResponse(caller, runId, request.waitSeconds, created);
});

// GET /public/api/{organization}/{environment}/{api}/runs - list the consumer's runs, newest first (?state=, ?limit=, ?cursor=)
export const GET = publicRoute({ params: ZApiPath }, async ({ req, caller }) => {
  const query = parseListQuery(new URL(req.url).searchParams);
  const links = keyRunLinks(caller);
  const page = await listRuns(caller.scope, links, query);
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  const link = nextLink(links.base, query, page.next_cursor);
  if (link) headers.link = link;
  return new Response(JSON.stringify(page), { status: 200, headers });
});

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods(ZApiPath, ["GET", "POST"]);
