/**
 * `runFlow`: executes one flow version on resolved inputs.
 *
 * - Steps run in topological order (every step after the steps it reads); all steps run.
 * - Before each step, `resolveStep` substitutes `{"param"}` options with `params` (pass them
 *   through `applyParameterDefaults` of lib/flows/run-request.ts first) and re-checks them.
 * - After each step `opts.onProgress(done, total)` is called (total = number of steps).
 * - `opts.signal` is checked before each step and every few thousand items inside step
 *   loops; long loops also yield to the event loop about every 25 ms so that an abort can be
 *   delivered. Cancellation throws `AbortError` (`name === "AbortError"`).
 * - A failing step is reported as `StepError` (step id, type, `cause`).
 * - `opts.maxItems`: a step whose output has more items than that fails with a `StepError`
 *   whose cause is `ResourceLimitError` ("rows <N>"); steps that multiply items check while
 *   they work (`TStepContext.checkItems`).
 * - Results: one `TEngineResult` per flow result, in the flow's order; a layer result is a
 *   `TFeatureSet` (an area input becomes one feature), a table result a `TTable`. An omitted
 *   optional input (null) reads as an empty dataset, except as `by` of spatial_filter/clip,
 *   where it means "no restriction". Each result carries `columns`, its columns as derived
 *   from the flow (lib/engine/result-columns.ts), for the writers.
 *
 * Inputs are never mutated; results may share feature objects with inputs.
 */
import { paramDecls, topologicalOrder, type TFlowVersion } from "@/lib/engine/flow-document";
import { AbortError, StepError, isAbortError, throwIfAborted } from "@/lib/engine/errors";
import { ResourceLimitError } from "@/lib/errors";
import { resultColumns } from "@/lib/engine/result-columns";
import type { TEngineResult, TResolvedInputs, TRunFlowOptions } from "@/lib/engine/types";
import type { TStepContext, TStepDefinition } from "@/lib/steps/define-step";
import type { TDataset } from "@/lib/steps/dataset";
import { asFeatures, columnsOf, itemCount } from "@/lib/steps/items";
import { resolveStep, stepDefinition } from "@/lib/steps/step-schema";

export { StepError, AbortError, isAbortError };

const YIELD_EVERY_MS = 25;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));
}

function tooManyItems(maxItems: number): ResourceLimitError {
  const n = maxItems.toLocaleString("en");
  return new ResourceLimitError(
    `The step produced more than ${n} rows or features, the most one step of a run may produce; narrow the request (fewer rows, a smaller radius or area, a higher threshold).`,
    `rows ${n}`,
  );
}

/**
 * Runs `flow` on `inputs` (by input name; null or missing = omitted optional input) with
 * `params` (by parameter name, defaults already applied). Throws `Error` for a missing required
 * input or an input of the wrong kind, `StepError` for a failing step, `AbortError` on cancel.
 */
export async function runFlow(
  flow: TFlowVersion,
  inputs: TResolvedInputs,
  params: Record<string, unknown>,
  opts: TRunFlowOptions = {},
): Promise<TEngineResult[]> {
  const { signal, onProgress } = opts;
  const maxItems = opts.maxItems ?? Infinity;
  const data = new Map<string, TDataset | null>();
  for (const input of flow.inputs) {
    const ds = inputs[input.name] ?? null;
    if (ds === null && !input.optional) throw new Error(`Input "${input.name}" is required`);
    const want = input.kind === "layer" ? "features" : input.kind === "table" ? "rows" : "area";
    if (ds !== null && ds.kind !== want) throw new Error(`Input "${input.name}" must be ${want}, got ${ds.kind}`);
    data.set(input.name, ds);
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
  const decls = paramDecls(flow.parameters);
  const ctx: TStepContext = {
    get(name) {
      if (!data.has(name)) throw new Error(`Unknown source "${name}"`);
      return data.get(name)!;
    },
    params,
    paramDecls: decls,
    checkpoint,
    maxItems,
    checkItems: (count) => {
      if (count > maxItems) throw tooManyItems(maxItems);
    },
  };

  const order = topologicalOrder(flow);
  let done = 0;
  for (const step of order) {
    throwIfAborted(signal);
    let out: TDataset;
    try {
      const resolved = resolveStep(step, params);
      const definition = stepDefinition(resolved.type) as TStepDefinition;
      out = await definition.run(resolved as Parameters<TStepDefinition["run"]>[0], ctx);
      ctx.checkItems(itemCount(out));
    } catch (err) {
      if (isAbortError(err)) throw err;
      throw new StepError(step.id, step.type, err);
    }
    data.set(step.id, out);
    onProgress?.(++done, order.length);
    await checkpoint();
  }

  const derived = resultColumns(flow);
  return flow.results.map((r): TEngineResult => {
    const ds = data.get(r.from) ?? null;
    const columns = derived[r.key];
    if (r.kind === "layer") return { key: r.key, kind: "layer", data: asFeatures(ds), columns };
    if (ds === null) return { key: r.key, kind: "table", data: { kind: "rows", columns: [], rows: [] }, columns };
    if (ds.kind !== "rows") throw new Error(`Result "${r.key}" needs a table`);
    return { key: r.key, kind: "table", data: ds.columns.length || !ds.rows.length ? ds : { ...ds, columns: columnsOf(ds.rows) }, columns };
  });
}
