/**
 * `runFlow`: executes one flow version on resolved inputs.
 *
 * - Steps run in topological order (every step after the steps it reads); all steps run.
 * - Before each step, `resolveStep` substitutes `{"param"}` options with `params` (pass them
 *   through `applyParameterDefaults` of lib/flows/run-request.ts first) and re-checks them.
 * - `opts.signal` is checked before each step, between batches and every few thousand items
 *   inside step loops; long loops also yield to the event loop about every 25 ms so that an
 *   abort can be delivered. Cancellation throws `AbortError` (`name === "AbortError"`).
 * - `opts.maxItems`: a step whose output has more items than that fails with a `StepError`
 *   whose cause is `ResourceLimitError` ("rows <N>"); steps that multiply items check while
 *   they work (`TStepContext.checkItems`); a lazy step's items count when they are materialised
 *   (held), not while they stream into a batch-by-batch reader, which holds none of them.
 * - Results: one `TEngineResult` per flow result, in the flow's order; a layer result is a
 *   `TFeatureSet` (an area input becomes one feature), a table result a `TTable`. An omitted
 *   optional input (null) reads as an empty dataset, except as `by` of spatial_filter/clip,
 *   where it means "no restriction". Each result carries `columns`, its columns as derived
 *   from the flow (lib/engine/result-columns.ts), for the writers.
 *
 * Layers read from files (`TLayerSource` inputs) are read by spatial pushdown and in batches:
 * - Planning: `planLayerBoxes` (lib/engine/plan-boxes.ts) gives, before the run, the box each
 *   layer input is read within; the steps' exact geometry tests do the rest, so the results
 *   are those of the whole layer.
 * - Streaming: such an input is lazy: nothing is read until a step needs it. A step declaring
 *   `batch` (filter, select, compute, spatial_filter, clip, points_from_rows) over a lazy
 *   source yields a lazy output (its batch function applied to each batch as it is read), so
 *   chains of them stay lazy; a step reading a source with `ctx.batches` (aggregate,
 *   spatial_join's points) consumes it batch by batch. Any other reader (`ctx.get`, a result)
 *   materialises a lazy dataset once, in order, and keeps it for later readers; a dataset that
 *   one reader takes whole is materialised at its first reader, so the file is read once. A lazy
 *   dataset only read batch by batch, by several readers, is read (and computed) once per reader.
 *   So a run holds what its steps keep, not the layer: country-stats (filter -> spatial_join)
 *   never holds the points; cities-in-area holds only the points inside the area's box. Errors
 *   of a lazy step (its batch function, its item limit) surface when it is read, as a
 *   `StepError` naming it; a lazy step nobody reads does no work.
 * - Columns: a layer file's plain 2D points come held by column (lib/steps/point-columns.ts) and
 *   stay so through filter, spatial_filter, select and materialising (the layer's order restored
 *   by index), into aggregate, spatial_join's points and the GeoJSON and copy writers; any other
 *   reader makes their features once, when it first reads them. The same results either way.
 * - Order: a layer file keeps its features along a Hilbert curve, with each one's position in
 *   the layer (`itemPosition`, lib/steps/dataset.ts); materialising restores the layer's order,
 *   so every result lists its features as a run on the layer in memory would. Batch-by-batch
 *   readers (aggregate, spatial_join's points) see file order: their counts and integer sums are
 *   the same; a sum of fractional numbers may differ in its last bits.
 *
 * Inputs are never mutated; results may share feature objects with inputs.
 */
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { paramDecls, topologicalOrder, type TFlowVersion } from "@/lib/engine/flow-document";
import { StepError, isAbortError, throwIfAborted } from "@/lib/engine/errors";
import { ResourceLimitError } from "@/lib/errors";
import { planLayerBoxes } from "@/lib/engine/plan-boxes";
import { resultColumns } from "@/lib/engine/result-columns";
import type { TEngineResult, TResolvedInputs, TRunFlowOptions } from "@/lib/engine/types";
import type { TStepContext, TStepDefinition, TStepRunner } from "@/lib/steps/define-step";
import { concatTables, itemPosition, layerOrder, sliceTable, tableFromRows } from "@/lib/steps/dataset";
import type { TBox, TDataset, TFeature, TFeatureSet, TLayerSource, TRow, TTable } from "@/lib/steps/dataset";
import { asFeatures, asItems, itemCount, type TItems } from "@/lib/steps/items";
import { pointFeatures, pointRowsOf, rowCount, takePointsOf, type TPointColumns, type TPointRows } from "@/lib/steps/point-columns";
import { stepRunner } from "@/lib/steps/runners";
import { resolveStep, stepSources } from "@/lib/steps/step-schema";

export { StepError, isAbortError };

const YIELD_EVERY_MS = 25;

function tooManyItems(maxItems: number): ResourceLimitError {
  const n = maxItems.toLocaleString("en");
  return new ResourceLimitError(
    `The step produced more than ${n} rows or features, the most one step of a run may produce; narrow the request (fewer rows, a smaller radius or area, a higher threshold).`,
    `rows ${n}`,
  );
}

/** The first `n` of `items` in their layer's own order (stable for equal positions). */
function inLayerOrder<T extends object>(items: T[], n: number): T[] {
  const positions = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) positions[i] = itemPosition(items[i]!)!;
  return Array.from(layerOrder(positions, positions).subarray(0, n), (i) => items[i]!);
}

/**
 * The first `n` features of `parts` (taken one after another, each through its rows) in their
 * layer's own order (every feature has its position), gathered from the parts at once;
 * undefined when their columns differ.
 */
function pointsInLayerOrder(parts: readonly TPointRows[], n: number): TPointColumns | undefined {
  if (parts.length === 1 && !parts[0]!.rows) return takePointsOf(parts, layerOrder(parts[0]!.cols.positions!).subarray(0, n));
  // the positions, through each part's rows, in an array the order is then sorted in
  const positions = new Float64Array(parts.reduce((k, p) => k + rowCount(p), 0));
  let at = 0;
  for (const part of parts) {
    const { cols, rows } = part;
    if (!rows) positions.set(cols.positions!, at);
    else for (let i = 0; i < rows.length; i++) positions[at + i] = cols.positions![rows[i]!]!;
    at += rowCount(part);
  }
  return takePointsOf(parts, layerOrder(positions, positions).subarray(0, n));
}

/** A dataset not read yet: a layer file, or a batch step over one. Each `batches()` call is a new pass, in order. */
interface TLazy {
  kind: "lazy";
  of: "features" | "rows";
  /** `of: "rows"`: the columns of every batch. */
  columns: string[];
  batches(): AsyncIterable<TItems>;
}

type TValue = TDataset | TLazy | null;

function itemsOf(of: "features" | "rows", columns: string[], items: TFeatureSet | TFeature[] | TRow[]): TItems {
  if (!Array.isArray(items)) return items;
  return of === "features" ? { kind: "features", features: items as TFeature[] } : tableFromRows(columns, items as TRow[]);
}

/** Errors of reading a layer file: they reach the caller of runFlow as they are, not as a `StepError` of the step that read. */
const readErrors = new WeakSet<object>();

/** A layer input read lazily within `box`. */
function lazyInput(source: TLayerSource, box: TBox | null, signal: AbortSignal | undefined): TLazy {
  const columns = source.columns ?? [];
  return {
    kind: "lazy",
    of: source.of,
    columns,
    async *batches() {
      try {
        // Errors of the read only: a reader's own errors do not come back into this generator.
        for await (const items of source.batches(box, signal)) yield itemsOf(source.of, columns, items);
      } catch (err) {
        if (typeof err === "object" && err !== null) readErrors.add(err);
        throw err;
      }
    },
  };
}

/** Rethrows what must pass as it is (a cancellation, a step's error, a read error); wraps anything else as a `StepError` of `step`. */
function stepFailure(step: { id: string; type: string }, err: unknown): never {
  if (isAbortError(err) || err instanceof StepError || (typeof err === "object" && err !== null && readErrors.has(err))) throw err;
  throw new StepError(step.id, step.type, err);
}

/** Option keys whose sources a step reads batch by batch: its `batchSources` and `batch.source`. */
function batchKeys(definition: TStepRunner): Set<string> {
  return new Set([...(definition.batchSources ?? []), ...(definition.batch ? [definition.batch.source] : [])]);
}

/** Names of the inputs and steps some reader takes whole: a result (unless results are heads), or a step reading it with `ctx.get`. */
function readWhole(flow: TFlowVersion, resultsWhole: boolean): Set<string> {
  const names = new Set(resultsWhole ? flow.results.map((r) => r.from) : []);
  for (const step of flow.steps) {
    const inBatches = batchKeys(stepRunner(step.type)!);
    for (const src of stepSources(step)) if (!inBatches.has(src.spec.key)) names.add(src.name);
  }
  return names;
}

/**
 * Runs `flow` on `inputs` (by input name; null or missing = omitted optional input) with
 * `params` (by parameter name, defaults already applied). Throws `Error` for a missing required
 * input or an input of the wrong kind, `StepError` for a failing step, `AbortError` on cancel;
 * an error thrown by a `TLayerSource`'s `batches` (a failed read) reaches the caller as it is.
 */
export async function runFlow(
  flow: TFlowVersion,
  inputs: TResolvedInputs,
  params: Record<string, unknown>,
  opts: TRunFlowOptions = {},
): Promise<TEngineResult[]> {
  const { signal, onProgress } = opts;
  const maxItems = opts.maxItems ?? Infinity;
  const data = new Map<string, TValue>();
  const fromFiles = flow.inputs.some((i) => inputs[i.name]?.kind === "layer-source");
  const boxes = fromFiles ? planLayerBoxes(flow, inputs, params) : {};
  for (const input of flow.inputs) {
    const ds = inputs[input.name] ?? null;
    if (ds === null && !input.optional) throw new Error(`Input "${input.name}" is required`);
    const want = input.kind === "layer" ? "features" : input.kind === "table" ? "rows" : "area";
    const got = ds?.kind === "layer-source" ? ds.of : ds?.kind;
    if (ds !== null && got !== want) throw new Error(`Input "${input.name}" must be ${want}, got ${got}`);
    data.set(input.name, ds?.kind === "layer-source" ? lazyInput(ds, boxes[input.name] ?? null, signal) : ds);
  }

  let lastYield = performance.now();
  const checkpoint = async () => {
    throwIfAborted(signal);
    if (performance.now() - lastYield > YIELD_EVERY_MS) {
      await yieldToEventLoop();
      lastYield = performance.now();
      throwIfAborted(signal);
    }
  };

  /** The items of `name` batch by batch: a lazy dataset's batches (checking for cancellation between them), a dataset in memory as one. */
  async function* batchesOf(name: string): AsyncIterable<TDataset | null> {
    const value = data.get(name) ?? null;
    if (value?.kind !== "lazy") {
      yield value;
      return;
    }
    for await (const items of value.batches()) {
      throwIfAborted(signal);
      yield items;
    }
  }

  /**
   * The first `n` items (default: all) of the lazy dataset `name`, in the layer's order when every
   * item has its position (a layer file keeps its features in Hilbert order), else as read, and
   * how many it has: one more pass, holding at most about 2n items. Read whole, what it holds is
   * limited (`maxItems`), as a step's output in memory is; a raw input is not checked, as in memory.
   */
  async function readLazy(name: string, n = Infinity): Promise<{ ds: TDataset; count: number }> {
    const value = data.get(name) as TLazy;
    const step = n === Infinity ? flow.steps.find((s) => s.id === name) : undefined;
    let kept: TFeature[] = [];
    // Batches held by column, while every batch is (lib/steps/point-columns.ts), and how many features they hold.
    let parts: TPointRows[] | null = [];
    let held = 0;
    const tables: TTable[] = [];
    let count = 0;
    let byPosition = true;
    for await (const batch of batchesOf(name)) {
      const items = batch as TItems;
      if (items.kind === "rows") {
        if (count < n) tables.push(count + items.length <= n ? items : sliceTable(items, 0, n - count));
        count += items.length;
      } else {
        const view = parts && pointRowsOf(items);
        if (parts && view?.cols.positions) {
          parts.push(view);
          held += rowCount(view);
          count += rowCount(view);
          if (held > 2 * n) {
            const first = pointsInLayerOrder(parts, n);
            if (first) [parts, held] = [[{ cols: first, rows: null }], n];
          }
        } else {
          // Not all by column: the features of those that were, then of this one and the rest.
          if (parts) for (const p of parts) for (const f of pointFeatures(p.cols, p.rows).features) kept.push(f);
          parts = null;
          for (const item of items.features) {
            count++;
            if (byPosition && itemPosition(item) === undefined) {
              byPosition = false;
              kept = kept.slice(0, n);
            }
            if (byPosition || kept.length < n) kept.push(item);
          }
        }
      }
      if (step && count > maxItems) throw new StepError(step.id, step.type, tooManyItems(maxItems));
      if (byPosition && kept.length > 2 * n) kept = inLayerOrder(kept, n);
      await checkpoint();
    }
    if (value.of === "rows") return { ds: concatTables(value.columns, tables), count };
    const all = parts && parts.length > 0 ? pointsInLayerOrder(parts, n) : undefined;
    if (all) return { ds: pointFeatures(all), count };
    // Parts whose columns differ (no step makes them so): as features.
    if (parts) for (const p of parts) for (const f of pointFeatures(p.cols, p.rows).features) kept.push(f);
    if (byPosition) kept = inLayerOrder(kept, n);
    return { ds: { kind: "features", features: kept }, count };
  }

  /** Reads a lazy dataset whole, once: later readers get the same arrays (and the indexes cached for them). */
  async function materialise(name: string): Promise<void> {
    if (data.get(name)?.kind === "lazy") data.set(name, (await readLazy(name)).ds);
  }

  const decls = paramDecls(flow.parameters);
  const ctx: TStepContext = {
    get(name) {
      if (!data.has(name)) throw new Error(`Unknown source "${name}"`);
      const value = data.get(name)!;
      if (value?.kind === "lazy") throw new Error(`Source "${name}" is read batch by batch`);
      return value;
    },
    params,
    paramDecls: decls,
    checkpoint,
    maxItems,
    checkItems: (count) => {
      if (count > maxItems) throw tooManyItems(maxItems);
    },
    batches: (name) => {
      if (!data.has(name)) throw new Error(`Unknown source "${name}"`);
      return batchesOf(name);
    },
  };

  /**
   * The lazy output of batch step `step` over the lazy source `sourceName`: `fn` on each batch as
   * it is read. Its errors name the step. Its items are not counted against `maxItems` while they
   * stream (a reader taking them batch by batch holds none of them); they are when materialised.
   */
  function lazyStep(
    step: { id: string; type: string },
    definition: TStepDefinition,
    sourceName: string,
    fn: (items: TDataset | null) => Promise<TDataset>,
    columns: string[],
  ): TLazy {
    const source = data.get(sourceName) as TLazy;
    const of = definition.output === "same" ? source.of : (definition.output as "features" | "rows");
    return {
      kind: "lazy",
      of,
      columns,
      async *batches() {
        for await (const batch of batchesOf(sourceName)) {
          let out: TItems;
          try {
            out = asItems(await fn(batch));
          } catch (err) {
            stepFailure(step, err);
          }
          if (itemCount(out) > 0) yield out;
        }
      },
    };
  }

  const order = topologicalOrder(flow.steps);
  const head = opts.resultHead;
  const wholeReads = readWhole(flow, head === undefined);
  let done = 0;
  for (const step of order) {
    throwIfAborted(signal);
    let out: TValue;
    try {
      const resolved = resolveStep(step, params);
      const definition = stepRunner(resolved.type)!;
      const batch = definition.batch;
      const streamed = batch && ((resolved as Record<string, unknown>)[batch.source] as string);
      const inBatches = batchKeys(definition);
      // Read whole by some reader anyway: read it (once) now rather than once per reader.
      for (const src of stepSources(step)) if (!inBatches.has(src.spec.key) || wholeReads.has(src.name)) await materialise(src.name);
      if (batch && streamed !== undefined && data.get(streamed)?.kind === "lazy") {
        const fn = await batch.start(resolved as Parameters<TStepRunner["run"]>[0], ctx);
        const source = data.get(streamed) as TLazy;
        // The columns of a rows output, known before any batch: the function on no items.
        const columns =
          definition.output === "features" || source.of === "features"
            ? []
            : ((await fn(itemsOf("rows", source.columns, []))) as { columns: string[] }).columns;
        out = lazyStep(step, definition, streamed, fn, columns);
      } else {
        out = await definition.run(resolved as Parameters<TStepRunner["run"]>[0], ctx);
        ctx.checkItems(itemCount(out));
      }
    } catch (err) {
      stepFailure(step, err);
    }
    data.set(step.id, out);
    onProgress?.(++done, order.length);
    await checkpoint();
  }

  const finals = new Map<string, { ds: TDataset | null; count?: number }>();
  for (const r of flow.results) {
    if (finals.has(r.from)) continue;
    if (head !== undefined && data.get(r.from)?.kind === "lazy") finals.set(r.from, await readLazy(r.from, head));
    else {
      await materialise(r.from);
      finals.set(r.from, { ds: (data.get(r.from) ?? null) as TDataset | null });
    }
  }
  const derived = resultColumns(flow);
  return flow.results.map((r): TEngineResult => {
    const { ds, count } = finals.get(r.from)!;
    const columns = derived[r.key];
    const counted = count === undefined ? {} : { count };
    if (r.kind === "layer") return { key: r.key, kind: "layer", data: asFeatures(ds), columns, ...counted };
    if (ds === null) return { key: r.key, kind: "table", data: tableFromRows([], []), columns };
    if (ds.kind !== "rows") throw new Error(`Result "${r.key}" needs a table`);
    return { key: r.key, kind: "table", data: ds, columns, ...counted };
  });
}
