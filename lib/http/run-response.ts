/**
 * HTTP answers carrying a run document: 202 with `Location` and `Retry-After` while the run
 * is not final, 200 with the final document (completed, failed or cancelled); and the
 * `Link` header of run lists (RFC 8288).
 */
import "server-only";
import type { TKeyCaller } from "@/lib/keys/served-apis";
import { runDocument, type TRunLinks, type TRunRow } from "@/lib/runs/run-document";
import { FINAL_STATES } from "@/lib/runs/run-state-names";
import { waitForRun } from "@/lib/runs/wait-for-run";
import { apiBasePath } from "@/lib/runs/scope";
import type { TListRunsQuery } from "@/lib/runs/list-runs";

/** Seconds a client should wait before polling a run that is not final. */
export const POLL_AFTER_SECONDS = 1;

/** Where a key caller's run documents link to: its API's public base. */
export function keyRunLinks(caller: TKeyCaller): TRunLinks {
  return { base: apiBasePath(caller.path), api: caller.path.api };
}

export function runJson(caller: TKeyCaller, run: TRunRow & { flowVersion?: { version: number } | null }, status: number): Response {
  const doc = runDocument(run, keyRunLinks(caller), run.flowVersion?.version ?? caller.target.flowVersionNumber);
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  if (status === 202) {
    headers.location = doc.links.self;
    headers["retry-after"] = String(POLL_AFTER_SECONDS);
  }
  return new Response(JSON.stringify(doc), { status, headers });
}

/**
 * Answers POST /runs: waits up to `waitSeconds` for a final state (woken by NOTIFY).
 * A new run answered without waiting is described from its inserted row: it is `queued`
 * at that moment, and reading it back would only cost a round trip.
 */
export async function runResponse(
  caller: TKeyCaller,
  runId: string,
  waitSeconds: number | null,
  created?: { createdAt: Date; stepsTotal: number },
): Promise<Response> {
  if (created && !waitSeconds) return runJson(caller, queuedRun(runId, created), 202);
  const run = await waitForRun(runId, (waitSeconds ?? 0) * 1000);
  return runJson(caller, run, FINAL_STATES.has(run.state) && waitSeconds ? 200 : 202);
}

/** The row of a run just inserted by createRun: queued, nothing done yet. */
export function queuedRun(runId: string, created: { createdAt: Date; stepsTotal: number }): TRunRow {
  return {
    id: runId,
    state: "queued",
    createdAt: created.createdAt,
    startedAt: null,
    finishedAt: null,
    stepsDone: 0,
    stepsTotal: created.stepsTotal,
    error: null,
  };
}

/** `Link` header value for the next page of a run list, or null. */
export function nextLink(base: string, query: TListRunsQuery, nextCursor: string | null): string | null {
  if (!nextCursor) return null;
  const q = new URLSearchParams();
  if (query.state) q.set("state", query.state);
  q.set("limit", String(query.limit));
  q.set("cursor", nextCursor);
  return `<${base}/runs?${q.toString()}>; rel="next"`;
}
