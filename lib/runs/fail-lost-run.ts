/**
 * Handler of "run-dead": every attempt of a run's job failed without the run reaching a
 * final state (its worker died each time, an internal error was thrown, or the job expired). The run becomes `failed`
 * with error `worker_lost`, atomically, and waiting requests are woken. A run that did
 * reach a final state is left as it is.
 */
import "server-only";
import { db } from "@/lib/db";
import type { TRunJob } from "@/lib/jobs/schemas";
import { notifyRunFinal } from "@/lib/runs/run-events";
import { addUsage } from "@/lib/metering/usage";

export async function failLostRun(data: TRunJob): Promise<void> {
  await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ workspaceId: string; processingMs: number }[]>`
      UPDATE "run" SET "state" = 'failed', "finishedAt" = now() AT TIME ZONE 'utc',
        "error" = ${JSON.stringify({ code: "worker_lost", message: "Every attempt to run this flow ended without a result (the worker stopped, or failed internally); the run was abandoned." })}::jsonb,
        "processingMs" = CASE WHEN "startedAt" IS NULL THEN 0
                              ELSE (extract(epoch FROM ((now() AT TIME ZONE 'utc') - "startedAt")) * 1000)::int END,
        "request" = NULL
      WHERE "id" = ${data.runId}::uuid AND "state" IN ('queued', 'running')
      RETURNING "workspaceId", "processingMs"`;
    const run = rows[0];
    if (!run) return;
    await addUsage(run.workspaceId, { processingMs: run.processingMs }, tx);
    await notifyRunFinal(tx, data.runId);
  });
}
