/**
 * What the domain asks of the place where runs execute, and what it gets back: a run's task
 * (its flow, inputs as layer files or caller data, the files to write, its budgets) and its
 * answer (counts, blob keys). The worker's run pool (worker/runtime/run-pool.ts) implements
 * `TRunner`; lib/runs/execute-run.ts and lib/runs/make-result-format.ts are given one, so the
 * domain never imports the worker's processes.
 *
 * Nothing big crosses this boundary: layers and result files go between the runner and the
 * blob store directly; a task and its answer carry keys, counts and progress.
 */
import type { TFlowVersion } from "@/lib/flows/definition";
import type { TResultFormat } from "@/lib/formats/registry";

/**
 * A layer input as the runner opens it: the layer's file in the blob store (its key names one
 * version: a replaced layer gets a new key) and what the planner may use before reading it.
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

/** An input of a run as sent to the runner: a layer file, caller data as in the request, or omitted. */
export type TProcessInput = { layer: TLayerRef } | { value: unknown } | null;

/** One (result key, format) file to encode. */
export interface TFileRequest {
  key: string;
  format: TResultFormat;
}

/** One complete result file in the blob store, as the runner wrote it. */
export interface TWrittenFile {
  key: string;
  format: TResultFormat;
  blobKey: string;
  sizeBytes: number;
  sha256: string;
}

/** A result of a run as the worker records it: counts, and the blob key of its lossless copy (lib/runs/result-spill.ts). */
export interface TResultRecord {
  key: string;
  kind: "layer" | "table";
  featureCount: number | null;
  rowCount: number | null;
  spillKey: string;
}

export interface TRunTask {
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
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** Write another format of one result of a completed run from its lossless copy. */
export interface TFormatTask {
  runId: string;
  key: string;
  spillKey: string;
  format: TResultFormat;
  maxResultBytes: number;
  signal?: AbortSignal;
}

export interface TRunAnswer {
  results: TResultRecord[];
  files: TWrittenFile[];
}

/**
 * Runs flows and makes formats within the run's budgets; failures come as the error classes
 * lib/runs/classify-failure.ts knows (an abort when `signal` aborts).
 */
export interface TRunner {
  run(task: TRunTask): Promise<TRunAnswer>;
  format(task: TFormatTask): Promise<TWrittenFile>;
}
