/**
 * Cross-process run events over Postgres LISTEN/NOTIFY. When a run reaches a final state,
 * the transaction that finishes it also runs `pg_notify('run_final', run_id)`; each web
 * and worker process listens (lib/database/wait-for-notice.ts) and wakes what waits on that run:
 * requests with `wait_seconds`, which answer within milliseconds instead of at the next poll,
 * and the worker running it, which stops a cancelled run's work (lib/runs/execute-run.ts).
 * Likewise when a format of a result is made after its run (job "result-format",
 * lib/runs/make-result-format.ts): the insert of its file's row, or of its failure's, sends
 * `pg_notify('result_format', '<run id>/<key>/<format>')`, which wakes the downloads waiting for it.
 */
import "server-only";
import { waitForNotice } from "@/lib/database/wait-for-notice";

export const RUN_FINAL_CHANNEL = "run_final";

/**
 * Waits until the run is final or `ms` pass (or `signal` aborts); resolves true when final.
 * `isFinal()` is asked first, after a gap in notifications, and every `checkMs` (default 5 s);
 * a `run_final` notification is trusted without asking it (see `waitForNotice`).
 */
export function waitForRunFinal(runId: string, ms: number, isFinal: () => Promise<boolean>, signal?: AbortSignal, checkMs = 5000): Promise<boolean> {
  return waitForNotice(RUN_FINAL_CHANNEL, runId, ms, isFinal, signal, checkMs);
}

export const RESULT_FORMAT_CHANNEL = "result_format";

/** One format of one result of one run, `<run id>/<key>/<format>`: the payload of its `result_format` notification and the singleton key of the job that makes it. */
export const resultFormatId = (f: { runId: string; key: string; format: string }) => `${f.runId}/${f.key}/${f.format}`;

/**
 * Waits until that format of the result is made or has failed for good, or `ms` pass; resolves
 * true when either happened. `isSettled()` is asked first, after a gap in notifications, and
 * every `checkMs`.
 */
export function waitForResultFormat(
  f: { runId: string; key: string; format: string },
  ms: number,
  isSettled: () => Promise<boolean>,
  checkMs: number,
): Promise<boolean> {
  return waitForNotice(RESULT_FORMAT_CHANNEL, resultFormatId(f), ms, isSettled, undefined, checkMs);
}
