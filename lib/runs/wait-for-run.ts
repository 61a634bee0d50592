/**
 * Waiting for a run to become final, for callers that asked to wait (`wait_seconds` over
 * HTTP, an MCP tool call's wait). Woken by the `run_final` notification that
 * `finalizeRun` sends (lib/runs/run-events.ts), not by polling.
 */
import "server-only";
import { db } from "@/lib/db";
import { RUN_INCLUDE, type TRunWithResults } from "@/lib/runs/get-run-or-throw";
import { FINAL_STATES } from "@/lib/runs/run-state-names";
import { waitForRunFinal } from "@/lib/runs/run-events";

/** How often a waiter with `onProgress` reads the run's steps, ms. */
const PROGRESS_INTERVAL_MS = 500;

/** Progress of a run while it is waited on. */
export interface TRunProgress {
  state: string;
  stepsDone: number;
  stepsTotal: number;
}

/**
 * Waits up to `waitMs` for run `runId` (already known to be visible to the caller) to reach
 * a final state, then returns it as it is then (final or not), with its results. Every
 * `PROGRESS_INTERVAL_MS` while the run is not final, `onProgress` gets its steps when they changed; the
 * wait ends early, without touching the run, when `signal` aborts (a client that drops its
 * request does not cancel the run).
 */
export async function waitForRun(
  runId: string,
  waitMs: number,
  opts: { signal?: AbortSignal; onProgress?: (p: TRunProgress) => Promise<void> | void } = {},
): Promise<TRunWithResults> {
  let lastDone = -1;
  const isFinal = async () => {
    const r = await db.run.findUnique({ where: { id: runId }, select: { state: true, stepsDone: true, stepsTotal: true } });
    if (r && opts.onProgress && r.stepsDone > lastDone) {
      lastDone = r.stepsDone;
      await opts.onProgress(r);
    }
    return !!r && FINAL_STATES.has(r.state);
  };
  if (waitMs > 0) await waitForRunFinal(runId, waitMs, isFinal, opts.signal, opts.onProgress ? PROGRESS_INTERVAL_MS : undefined);
  const run = await db.run.findUniqueOrThrow({ where: { id: runId }, include: RUN_INCLUDE });
  if (opts.onProgress && run.stepsDone > lastDone) await opts.onProgress(run);
  return run;
}
