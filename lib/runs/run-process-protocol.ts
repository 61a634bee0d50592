/**
 * Messages between the worker process and its run processes (lib/runs/run-pool.ts, the worker
 * side; lib/runs/run-process.ts, the run side), and how a run failure crosses the process
 * boundary without losing its class. Files never cross it: the run process reads layers from
 * and writes result files to the blob store itself (lib/blobs) and reports their keys.
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
import type { TResultFormat } from "@/lib/formats/registry";

/**
 * A layer input as the run process opens it: the layer's file in the blob store (its key names
 * one version: a replaced layer gets a new key) and what the planner may use before reading it.
 */
export interface TLayerRef {
  id: string;
  fileKey: string;
  kind: "features" | "table";
  itemCount: number;
  bbox: number[];
  /** A table's columns in order (features: their property columns). */
  columns: string[];
}

/** An input of a run as sent to the run process: a layer file, caller data as in the request, or omitted. */
export type TProcessInput = { layer: TLayerRef } | { value: unknown } | null;

/** One (result key, format) file to encode. */
export interface TFileRequest {
  key: string;
  format: TResultFormat;
}

/** One complete result file in the blob store, as the run process wrote it. */
export interface TWrittenFile {
  key: string;
  format: TResultFormat;
  blobKey: string;
  sizeBytes: number;
  sha256: string;
}

export type TToProcess =
  | {
      type: "run";
      id: number;
      runId: string;
      flow: TFlowVersion;
      inputs: Record<string, TProcessInput>;
      params: Record<string, unknown>;
      /** Files to write before the run is final (the requested format of each result). */
      files: TFileRequest[];
      /** Most bytes all files of the run may take together. */
      maxResultBytes: number;
      /** Most rows or features one step may produce (runFlow's `maxItems`). */
      maxRows: number;
      /**
       * A preview (lib/runs/preview-run.ts): each result keeps only its first `headRows` rows or
       * features in its files; its count is still the full one.
       */
      headRows?: number;
    }
  /** Write more formats of one result of a completed run from its lossless copy (lib/runs/result-spill.ts). */
  | { type: "format"; id: number; runId: string; key: string; spillKey: string; formats: TResultFormat[]; maxResultBytes: number }
  /** Cancel what the run process is doing; it answers `failed` with an abort. */
  | { type: "abort" };

export interface TResultSummary {
  key: string;
  kind: "layer" | "table";
  featureCount: number | null;
  rowCount: number | null;
}

/** A result of a run as the worker records it: counts, and the blob key of its lossless copy. */
export interface TResultRecord extends TResultSummary {
  spillKey: string;
}

export type TFromProcess =
  | { type: "progress"; id: number; done: number; total: number }
  | { type: "done"; id: number; results: TResultRecord[]; files: TWrittenFile[] }
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
