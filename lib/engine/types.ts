/**
 * What the flow engine (`runFlow`) takes and returns. The data shapes themselves (layer,
 * table, area) are defined with the steps in lib/steps/dataset.ts and re-exported here for
 * the result writers (lib/formats), the worker and the public API.
 */
import type { TColumns } from "@/lib/steps/columns";
import type { TDataset, TFeatureSet, TLayerSource, TTable } from "@/lib/steps/dataset";

export type { TBox, TDataset, TLayerSource, TFeature, TFeatureSet, TRow, TTable } from "@/lib/steps/dataset";

/**
 * Inputs of one run after resolution (caller data parsed; a layer loaded whole or as a
 * `TLayerSource` read lazily within its planned box); null = omitted optional input.
 */
export type TResolvedInputs = Record<string, TDataset | TLayerSource | null>;

/** One computed result of a run, before it is written to a file. */
export type TEngineResult = ({ key: string; kind: "layer"; data: TFeatureSet } | { key: string; kind: "table"; data: TTable }) & {
  /** The result's columns as derived from the flow (lib/engine/result-columns.ts), not from this run's data. */
  columns?: TColumns;
  /** With `resultHead`: all items of a result read from a file, when `data` holds only its first ones. */
  count?: number;
};

export interface TRunFlowOptions {
  /** Aborts the run; the engine checks it between steps and inside long loops. */
  signal?: AbortSignal;
  /** Called after each step: `done` steps out of `total`. */
  onProgress?: (done: number, total: number) => void;
  /** Most items (rows or features) one step may produce (see lib/engine/run-flow.ts); default: no limit. */
  maxItems?: number;
  /**
   * A preview (lib/runs/preview-run.ts, every step a result): a result still lazy at the end (read
   * from a layer file) is read once more as a head, its first `resultHead` items in the layer's
   * order and its `count`, never held whole. Results in memory are returned whole.
   */
  resultHead?: number;
}
