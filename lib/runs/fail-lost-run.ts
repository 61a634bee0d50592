/**
 * Handler of "run-dead": every attempt of a run's job failed without the run reaching a
 * final state (its worker died each time, or the job expired). The run becomes `failed`
 * with error `worker_lost` through `finalizeRun`; a run that did reach a final state is
 * left as it is.
 */
import "server-only";
import { db } from "@/lib/db";
import type { TRunJob } from "@/lib/jobs/schemas";
import type { TRunError } from "@/lib/runs/run-document";
import { finalizeRun } from "@/lib/runs/run-state";

const WORKER_LOST_ERROR: TRunError = {
  code: "worker_lost",
  message: "Every attempt to run this flow ended without a result (the worker stopped, or the database could not be reached); the run was abandoned.",
};

export async function failLostRun(data: TRunJob): Promise<void> {
  await db.$transaction((tx) => finalizeRun(tx, { runId: data.runId, to: "failed", error: WORKER_LOST_ERROR }));
}
