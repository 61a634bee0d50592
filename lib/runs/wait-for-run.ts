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

/**
 * Waits up to `waitMs` for run `runId` (already known to be visible to the caller) to reach
 * a final state, then returns it as it is then (final or not), with its results.
 */
export async function waitForRun(runId: string, waitMs: number): Promise<TRunWithResults> {
  if (waitMs > 0) {
    await waitForRunFinal(runId, waitMs, async () => {
      const r = await db.run.findUnique({ where: { id: runId }, select: { state: true } });
      return !!r && FINAL_STATES.has(r.state);
    });
  }
  return db.run.findUniqueOrThrow({ where: { id: runId }, include: RUN_INCLUDE });
}
