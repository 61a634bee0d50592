/**
 * Errors raised by the flow engine.
 *
 * - `StepError`: a step failed; `stepId`, `stepType` name it and `cause` holds the original error.
 * - `AbortError`: the run was cancelled through `TRunFlowOptions.signal` (`name === "AbortError"`,
 *   like the DOMException that `fetch` throws), so callers can test `err.name === "AbortError"`.
 */
export class StepError extends Error {
  readonly stepId: string;
  readonly stepType: string;
  constructor(stepId: string, stepType: string, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`Step "${stepId}" (${stepType}) failed: ${why}`, { cause });
    this.name = "StepError";
    this.stepId = stepId;
    this.stepType = stepType;
  }
}

export class AbortError extends Error {
  constructor(message = "The run was cancelled") {
    super(message);
    this.name = "AbortError";
  }
}

/** Errors a programming mistake raises: as a step's cause, our bug rather than the data's (lib/runs/classify-failure.ts). */
export const PROGRAMMING_ERRORS = { TypeError, ReferenceError, SyntaxError, EvalError } as const;

/** True for our AbortError and for DOMException("AbortError") alike. */
export function isAbortError(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { name?: unknown }).name === "AbortError";
}

/** Throws `AbortError` when `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError();
}
