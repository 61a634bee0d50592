/**
 * HTTP answers carrying a run document: 202 with `Location` and `Retry-After` while the run
 * is not final, 200 with the final document (completed, failed or cancelled).
 */
import "server-only";
import { db } from "@/lib/db";
import type { TCaller } from "@/lib/api/resolve-caller";
import { apiBasePath, FINAL_STATES, runDocument, type TRunRow } from "@/lib/runs/run-document";
import { RUN_INCLUDE } from "@/lib/runs/get-run-or-throw";
import { waitForRunFinal } from "@/lib/runs/run-events";

type TPath = { organization: string; environment: string; api: string };

/** Seconds a client should wait before polling a run that is not final. */
export const POLL_AFTER_SECONDS = 1;

export function runJson(caller: TCaller, path: TPath, run: TRunRow & { flowVersion?: { version: number } }, status: number): Response {
  const doc = runDocument(run, apiBasePath(path), {
    slug: caller.apiSlug,
    flowVersion: run.flowVersion?.version ?? caller.flowVersionNumber,
  });
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
  caller: TCaller,
  path: TPath,
  runId: string,
  waitSeconds: number | null,
  created?: { createdAt: Date; stepsTotal: number },
): Promise<Response> {
  if (created && !waitSeconds) {
    const queued = { id: runId, state: "queued" as const, createdAt: created.createdAt, startedAt: null, finishedAt: null, stepsDone: 0, stepsTotal: created.stepsTotal, error: null };
    return runJson(caller, path, queued, 202);
  }
  const load = () => db.run.findUniqueOrThrow({ where: { id: runId }, include: RUN_INCLUDE });
  if (waitSeconds && waitSeconds > 0) {
    await waitForRunFinal(runId, waitSeconds * 1000, async () => {
      const r = await db.run.findUnique({ where: { id: runId }, select: { state: true } });
      return !!r && FINAL_STATES.has(r.state);
    });
  }
  const run = await load();
  return runJson(caller, path, run, FINAL_STATES.has(run.state) && waitSeconds ? 200 : 202);
}
