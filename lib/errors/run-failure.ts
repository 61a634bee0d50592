/**
 * Errors that end a run as `failed`, by class (never by message text). The worker
 * (lib/runs/classify-failure.ts) turns a thrown value into the run's `error` document:
 *
 * | class                    | run error code        | retried |
 * |--------------------------|-----------------------|---------|
 * | `InputDataError`         | `invalid_input`       | no      | the caller's data cannot be used (e.g. a layer removed since the request)
 * | `StepError` (lib/engine) | `step_failed`         | no      | a step failed on valid data
 * | `ResourceLimitError`     | `resources_exhausted` | no      | the run exceeded a documented limit (memory, rows, bytes, time)
 * | anything else            | `internal_error`      | no      | a bug: logged with its stack, the caller sees no internals
 *
 * Only an unreachable database and a run process killed from outside (`RunProcessLostError`:
 * the OOM killer, an operator) are retried (pg-boss), like a worker that dies mid-run; after
 * its retry such a run ends `worker_lost` (lib/runs/fail-lost-run.ts).
 */

/** Every `error.code` a failed run may carry (the run document's `ZRunError`); stable API, only added to. */
export const RUN_ERROR_CODES = ["step_failed", "invalid_input", "resources_exhausted", "internal_error", "worker_lost", "run_expired"] as const;

/** The caller's data (or a layer it names) cannot be used for this run. */
export class InputDataError extends Error {
  constructor(
    message: string,
    readonly input?: string,
  ) {
    super(message);
    this.name = "InputDataError";
  }
}

/** The run exceeded a limit; `limit` names it (e.g. "memory 512 MB"). */
export class ResourceLimitError extends Error {
  constructor(
    message: string,
    readonly limit: string,
  ) {
    super(message);
    this.name = "ResourceLimitError";
  }
}

/** The run process died of something other than the run's own limits (killed from outside): retried like a lost worker. */
export class RunProcessLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RunProcessLostError";
  }
}
