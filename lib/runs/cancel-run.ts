/**
 * Cancelling a run: a queued or running run becomes `cancelled` in one conditional
 * update (so it cannot race the worker finishing it), and waiting requests are woken.
 * The worker sees the state change and aborts the engine. A final run: 409.
 */
import "server-only";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/api/errors";
import type { TCaller } from "@/lib/api/resolve-caller";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import { notifyRunFinal } from "@/lib/runs/run-events";

export async function cancelRun(caller: TCaller, runId: string) {
  const run = await getRunOrThrow(caller, runId);
  const changed = await db.$transaction(async (tx) => {
    const n = await tx.$executeRaw`
      UPDATE "run" SET "state" = 'cancelled', "finishedAt" = now(),
        "processingMs" = CASE WHEN "startedAt" IS NULL THEN 0
                              ELSE (extract(epoch FROM (now() - "startedAt")) * 1000)::int END
      WHERE "id" = ${run.id}::uuid AND "state" IN ('queued', 'running')`;
    if (n > 0) await notifyRunFinal(tx, run.id);
    return n > 0;
  });
  if (!changed) {
    const current = await getRunOrThrow(caller, runId);
    throw new ApiError("conflict", `Run ${runId} has already finished (state "${current.state}") and cannot be cancelled.`);
  }
  return getRunOrThrow(caller, runId);
}
