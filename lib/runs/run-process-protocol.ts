/**
 * Messages between the worker process and its run processes (lib/runs/run-pool.ts, the worker
 * side; lib/runs/run-process.ts, the run side), and how a run failure crosses the process
 * boundary without losing its class.
 *
 * Structured clone keeps an Error's message but not its class, and runs are classified by
 * class (lib/runs/classify-failure.ts). So the run process sends `TProcessFailure`, a plain
 * description, and the worker side rebuilds the same classes with `failureToError`:
 * `InputDataError`, `ResourceLimitError`, `StepError` (with a cause of the same family:
 * a programming error stays a TypeError/ReferenceError/..., so it is still our bug),
 * `AbortError`, or a plain Error (a bug).
 */
import { InputDataError, ResourceLimitError } from "@/lib/errors";
import { AbortError, StepError, isAbortError } from "@/lib/engine/errors";
import type { TFlowVersion } from "@/lib/flows/definition";
import type { TResultFormat } from "@/lib/formats/types";

/**
 * Chunks a run process sends ahead of the worker's acknowledgements: the encoder waits (between
 * slices of its input) when this many are not stored yet, so a slow database holds the encoder
 * back instead of piling the file up in the worker (about 8 MiB at most per run).
 */
export const MAX_CHUNKS_IN_FLIGHT = 8;

/** A layer's stored content, sent to a run process that has not cached this version yet. */
export interface TLayerContent {
  id: string;
  version: number;
  kind: "features" | "table";
  /** The gzipped layer document (lib/layers/layer-data.ts). */
  content: Uint8Array;
}

/** An input of a run as sent to the run process: a (cached) layer, caller data as in the request, or omitted. */
export type TProcessInput = { layer: { id: string; version: number } } | { value: unknown } | null;

/** One (result key, format) file to encode. */
export interface TFileRequest {
  key: string;
  format: TResultFormat;
}

export type TToProcess =
  | {
      type: "run";
      id: number;
      flow: TFlowVersion;
      inputs: Record<string, TProcessInput>;
      params: Record<string, unknown>;
      layers: TLayerContent[];
      /** Files to encode before the run is final (the requested format of each result). */
      files: TFileRequest[];
      /** Most bytes all files of the run may take together. */
      maxResultBytes: number;
      /** Most rows or features one step may produce (runFlow's `maxItems`). */
      maxRows: number;
    }
  /**
   * Encode more files of the last run's results (the formats not requested); `release`: then
   * drop the results (and trim the memory) before answering, as `release` would; `throttle`:
   * start throttled (see the `throttle` message).
   */
  | { type: "encode"; id: number; files: TFileRequest[]; release?: boolean; throttle?: boolean }
  /** Whether a background `encode` should give way to a run a caller is waiting for (run-process.ts `giveWay`). */
  | { type: "throttle"; on: boolean }
  /** Decode and cache layers ahead of the runs that will need them (no answer). */
  | { type: "preload"; layers: TLayerContent[] }
  /** Forget the last run's results. */
  | { type: "release" }
  /** One chunk of request `id` is stored: the process may send one more (see `MAX_CHUNKS_IN_FLIGHT`). */
  | { type: "ack"; id: number }
  /** Cancel what the run process is doing (the run or the encoding); it answers `failed` with an abort. */
  | { type: "abort" };

export interface TResultSummary {
  key: string;
  kind: "layer" | "table";
  featureCount: number | null;
  rowCount: number | null;
}

export type TFromProcess =
  | { type: "progress"; id: number; done: number; total: number }
  /** The next chunk (`seq` from 0) of a file being written, sent as soon as the encoder produced it. */
  | { type: "chunk"; id: number; key: string; format: TResultFormat; seq: number; bytes: Uint8Array }
  /** A file is complete: all its `chunks` were sent before this. */
  | { type: "file"; id: number; key: string; format: TResultFormat; sizeBytes: number; sha256: string; chunks: number }
  | { type: "done"; id: number; results: TResultSummary[] }
  | { type: "failed"; id: number; failure: TProcessFailure };

/** A run failure as plain data. */
export type TProcessFailure =
  | { kind: "abort" }
  | { kind: "input"; message: string; input?: string }
  | { kind: "limit"; message: string; limit: string }
  | {
      kind: "step";
      stepId: string;
      stepType: string;
      cause: TProcessFailure | { kind: "programming"; name: string; message: string } | { kind: "error"; message: string };
    }
  | { kind: "bug"; name: string; message: string; stack?: string };

/** The errors classify-failure treats as programming mistakes (our bug) inside a step. */
const PROGRAMMING_ERRORS = { TypeError, ReferenceError, SyntaxError, EvalError } as const;

function isProgrammingErrorName(name: string): name is keyof typeof PROGRAMMING_ERRORS {
  return Object.hasOwn(PROGRAMMING_ERRORS, name);
}

/** The run process side: a thrown value as plain data. */
export function errorToFailure(err: unknown): TProcessFailure {
  if (isAbortError(err)) return { kind: "abort" };
  if (err instanceof InputDataError) return { kind: "input", message: err.message, input: err.input };
  if (err instanceof ResourceLimitError) return { kind: "limit", message: err.message, limit: err.limit };
  if (err instanceof StepError) {
    const cause = err.cause;
    let c: Extract<TProcessFailure, { kind: "step" }>["cause"];
    if (cause instanceof ResourceLimitError || cause instanceof InputDataError || isAbortError(cause)) c = errorToFailure(cause);
    else if (cause instanceof Error && isProgrammingErrorName(cause.name)) c = { kind: "programming", name: cause.name, message: cause.message };
    else c = { kind: "error", message: cause instanceof Error ? cause.message : String(cause) };
    return { kind: "step", stepId: err.stepId, stepType: err.stepType, cause: c };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return { kind: "bug", name: e.name, message: e.message, stack: e.stack };
}

/** The worker side: the same class again, for classifyRunFailure. */
export function failureToError(f: TProcessFailure | { kind: "programming"; name: string; message: string } | { kind: "error"; message: string }): Error {
  switch (f.kind) {
    case "abort":
      return new AbortError();
    case "input":
      return new InputDataError(f.message, f.input);
    case "limit":
      return new ResourceLimitError(f.message, f.limit);
    case "step":
      return new StepError(f.stepId, f.stepType, failureToError(f.cause));
    case "programming":
      return isProgrammingErrorName(f.name) ? new PROGRAMMING_ERRORS[f.name](f.message) : new Error(f.message);
    case "error":
      return new Error(f.message);
    case "bug": {
      const err = new Error(f.message);
      err.name = f.name;
      if (f.stack) err.stack = f.stack;
      return err;
    }
  }
}
