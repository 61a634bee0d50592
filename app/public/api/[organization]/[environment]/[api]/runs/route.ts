import { z } from "zod";
import { otherMethods, publicRoute, ZApiPath } from "@/lib/http/public-route";
import { keyRunLinks, nextLink, runResponse } from "@/lib/http/run-response";
import { checkRunRequest } from "@/lib/runs/check-run-request";
import { createRun } from "@/lib/runs/create-run";
import { listRuns, ZListRunsQuery } from "@/lib/runs/list-runs";
import { applyPrefer, parsePrefer } from "@/lib/http/prefer";
import { MAX_WAIT_SECONDS } from "@/lib/flows/run-request";

export const dynamic = "force-dynamic";

// POST /public/api/{organization}/{environment}/{api}/runs - start a run (202, or 200 when it finishes within wait_seconds or Prefer: wait=)
export const POST = publicRoute({ params: ZApiPath, body: z.unknown(), metered: "call", requiresWorker: true }, async ({ req, body, caller }) => {
  const request = await checkRunRequest(caller.scope, caller.target, body);
  const { runId, created } = await createRun(caller.scope, caller.target, request, req.headers.get("idempotency-key"));
  const { waitSeconds, applied } = applyPrefer(parsePrefer(req.headers.get("prefer")), request.waitSeconds, MAX_WAIT_SECONDS);
  const res = await runResponse(caller, runId, waitSeconds, created);
  if (applied) res.headers.set("preference-applied", applied);
  return res;
});

// GET /public/api/{organization}/{environment}/{api}/runs - list the consumer's runs, newest first (?state=, ?limit=, ?cursor=)
export const GET = publicRoute({ params: ZApiPath, query: ZListRunsQuery }, async ({ query, caller }) => {
  const links = keyRunLinks(caller);
  const page = await listRuns(caller.scope, links, query);
  const link = nextLink(links.base, query, page.next_cursor);
  return Response.json(page, { headers: { "cache-control": "no-store", ...(link ? { link } : {}) } });
});

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods(ZApiPath, ["GET", "POST"]);
