/**
 * Messages between the worker process and its run processes (worker/runtime/run-pool.ts, the
 * worker side; worker/runtime/run-process.ts, the run side): a task of lib/runs/run-task.ts, its
 * progress and its answer, and how a run failure crosses the process boundary without losing
 * its class.
 *
 * Structured clone keeps an Error's message but not its class, and runs are classified by
 * class (lib/runs/classify-failure.ts). So the run process sends `TProcessFailure`, a plain
 * description, and the worker side rebuilds the same classes with `failureToError`:
 * `InputDataError`, `ResourceLimitError`, `StepError` (its cause rebuilt the same way: a
 * programming error stays a TypeError/ReferenceError/..., so it is still our bug),
 * `AbortError`, or an Error of the same name (a bug).
 */
import { InputDataError, ResourceLimitError } from "@/lib/errors";
import { AbortError, PROGRAMMING_ERRORS, StepError, isAbortError } from "@/lib/engine/errors";
import type { TFormatTask, TResultRecord, TRunTask, TWrittenFile } from "@/lib/runs/run-task";

/** A task without what stays on the worker's side (its progress callback and abort signal). */
type TPlain<T> = Omit<T, "onProgress" | "signal">;

export type TToProcess =
  | ({ type: "run"; id: number } & TPlain<TRunTask>)
  | ({ type: "format"; id: number } & TPlain<TFormatTask>)
  /** Cancel what the run process is doing; it answers `failed` with an abort. */
  | { type: "abort" };

export type TFromProcess =
  | { type: "progress"; id: number; done: number; total: number }
  | { type: "done"; id: number; results: TResultRecord[]; files: TWrittenFile[] }
  | { type: "failed"; id: number; failure: TProcessFailure };

/** A run failure as plain data (a step's cause is one too). */
export type TProcessFailure =
  | { kind: "abort" }
  | { kind: "input"; message: string; input?: string }
  | { kind: "limit"; message: string; limit: string }
  | { kind: "step"; stepId: string; stepType: string; cause: TProcessFailure }
  | { kind: "bug"; name: string; message: string; stack?: string };

/** The run process side: a thrown value as plain data. */
export function errorToFailure(err: unknown): TProcessFailure {
  if (isAbortError(err)) return { kind: "abort" };
  if (err instanceof InputDataError) return { kind: "input", message: err.message, input: err.input };
  if (err instanceof ResourceLimitError) return { kind: "limit", message: err.message, limit: err.limit };
  if (err instanceof StepError) return { kind: "step", stepId: err.stepId, stepType: err.stepType, cause: errorToFailure(err.cause) };
  const e = err instanceof Error ? err : new Error(String(err));
  return { kind: "bug", name: e.name, message: e.message, stack: e.stack };
}

/** The worker side: the same class again, for classifyRunFailure. */
export function failureToError(f: TProcessFailure): Error {
  switch (f.kind) {
    case "abort":
      return new AbortError();
    case "input":
      return new InputDataError(f.message, f.input);
    case "limit":
      return new ResourceLimitError(f.message, f.limit);
    case "step":
      return new StepError(f.stepId, f.stepType, failureToError(f.cause));
    case "bug": {
      const err = Object.hasOwn(PROGRAMMING_ERRORS, f.name)
        ? new PROGRAMMING_ERRORS[f.name as keyof typeof PROGRAMMING_ERRORS](f.message)
        : new Error(f.message);
      err.name = f.name;
      if (f.stack) err.stack = f.stack;
      return err;
    }
  }
}
