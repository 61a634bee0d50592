/**
 * Cancelling a run visible to `scope`: a queued or running run becomes `cancelled`
 * through `finalizeRun` (lib/runs/run-state.ts), which also meters the time it ran, removes
 * its caller data and wakes waiting requests; the worker sees the state change and aborts
 * the engine. A run that already finished: AppError `conflict`.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import { finalizeRun } from "@/lib/runs/run-state";
import type { TRunScope } from "@/lib/runs/scope";

export async function cancelRun(scope: TRunScope, runId: string) {
  const run = await getRunOrThrow(scope, runId);
  const changed = await db.$transaction((tx) => finalizeRun(tx, { runId: run.id, to: "cancelled" }));
  if (!changed) {
    const current = await getRunOrThrow(scope, runId);
    throw new AppError("conflict", `The run has already finished (state "${current.state}") and cannot be cancelled.`);
  }
  return getRunOrThrow(scope, runId);
}
