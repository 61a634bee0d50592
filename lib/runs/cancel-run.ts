/**
 * Cancelling a run: a queued or running run becomes `cancelled` in one conditional
 * update (so it cannot race the worker finishing it), and waiting requests are woken.
 * The same transaction removes the caller data from the run (it is final now; only the
 * fingerprint stays) and meters the time it ran as processing time (0 if it never
 * started). The worker sees the state change and aborts the engine. A final run: 409.
 */
import "server-only";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/api/errors";
import type { TCaller } from "@/lib/api/resolve-caller";
import { addUsage } from "@/lib/metering/usage";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import { notifyRunFinal } from "@/lib/runs/run-events";
import { withoutCallerData } from "@/lib/runs/resolve-inputs";

export async function cancelRun(caller: TCaller, runId: string) {
  const run = await getRunOrThrow(caller, runId);
  const changed = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ workspaceId: string; processingMs: number; request: { inputs?: Record<string, unknown>; parameters?: unknown } | null }[]>`
      UPDATE "run" SET "state" = 'cancelled', "finishedAt" = now(),
        "processingMs" = CASE WHEN "startedAt" IS NULL THEN 0
                              ELSE (extract(epoch FROM (now() - "startedAt")) * 1000)::int END
      WHERE "id" = ${run.id}::uuid AND "state" IN ('queued', 'running')
      RETURNING "workspaceId", "processingMs", "request"`;
    const row = rows[0];
    if (!row) return false;
    if (row.request) await tx.run.update({ where: { id: run.id }, data: { request: withoutCallerData(row.request) } });
    await addUsage(row.workspaceId, { processingMs: row.processingMs }, tx);
    await notifyRunFinal(tx, run.id);
    return true;
  });
  if (!changed) {
    const current = await getRunOrThrow(caller, runId);
    throw new ApiError("conflict", `The run has already finished (state "${current.state}") and cannot be cancelled.`);
  }
  return getRunOrThrow(caller, runId);
}
