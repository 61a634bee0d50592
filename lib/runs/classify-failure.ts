/**
 * What the worker does with an error thrown while running a flow, decided by the error's
 * class (lib/errors/run-failure.ts has the table), never by its message:
 *
 * - `{ kind: "retry" }`: infrastructure that may come back (the database is unreachable, a run
 *   process was killed from outside);
 *   the job is thrown back to pg-boss, which retries it once and then dead-letters it
 *   (`worker_lost`).
 * - `{ kind: "fail", error }`: the run ends `failed` with `error` at once, never retried.
 *   A bug (`internal_error`) is logged with its stack; the caller sees no internals.
 */
import { InputDataError, ResourceLimitError } from "@/lib/errors";
import { RunProcessLostError } from "@/lib/errors/run-failure";
import { PROGRAMMING_ERRORS, StepError } from "@/lib/engine/errors";
import { isDatabaseUnavailable } from "@/lib/database/unavailable";
import type { TRunError } from "@/lib/runs/run-document";

export type TFailureDecision = { kind: "retry" } | { kind: "fail"; error: TRunError; bug: boolean };

const INTERNAL: TRunError = {
  code: "internal_error",
  message: "The run failed because of an internal error. It has been logged; retrying the same request will not help until it is fixed.",
};

export function classifyRunFailure(err: unknown): TFailureDecision {
  if (isDatabaseUnavailable(err) || err instanceof RunProcessLostError) return { kind: "retry" };
  if (err instanceof ResourceLimitError) {
    return { kind: "fail", bug: false, error: { code: "resources_exhausted", message: err.message, limit: err.limit } };
  }
  if (err instanceof InputDataError) return { kind: "fail", bug: false, error: { code: "invalid_input", message: err.message } };
  if (err instanceof StepError) {
    if (err.cause instanceof ResourceLimitError) {
      return { kind: "fail", bug: false, error: { code: "resources_exhausted", message: err.cause.message, limit: err.cause.limit, step: err.stepId } };
    }
    if (Object.values(PROGRAMMING_ERRORS).some((C) => err.cause instanceof C)) return { kind: "fail", bug: true, error: { ...INTERNAL, step: err.stepId } };
    return { kind: "fail", bug: false, error: { code: "step_failed", message: err.message, step: err.stepId } };
  }
  return { kind: "fail", bug: true, error: INTERNAL };
}
