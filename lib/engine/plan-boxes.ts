/**
 * `planLayerBoxes`: before a run, the box each layer input can be read within (spatial
 * pushdown: a GeoParquet reader skips the row groups whose box misses it). A run whose layer
 * inputs hold at least their items meeting their boxes, in their order, gives exactly the
 * results of a run on the whole layers: the steps still do their exact geometry tests, the
 * boxes only leave out items no result can depend on.
 *
 * Two passes over the flow, from the step runners' declarations (`extent`, `demand` of
 * `defineRunner`, lib/steps/define-step.ts) and the caller's data:
 * - forward, in run order: the extent of every input and step output (a box holding all its
 *   geometries, null = unknown): an area's or GeoJSON input's box, a layer file's `bbox`, a
 *   step's declared `extent` (undeclared: unknown);
 * - backward: the box needed of every input and step output, the union of what its readers
 *   need. A result needs everything; a step passes the box needed of its output to its sources
 *   through its `demand` (undeclared: everything of every source). A step nobody reads needs
 *   nothing of its sources.
 *
 * Steps whose options do not resolve with `params` (the run will fail at them) are planned as
 * undeclared. Boxes are `TBox` (lib/steps/dataset.ts); null means the whole layer.
 */
import { topologicalOrder, type TFlowVersion } from "@/lib/engine/flow-document";
import type { TResolvedInputs } from "@/lib/engine/types";
import type { TPlanSources } from "@/lib/steps/define-step";
import type { TBox, TDataset } from "@/lib/steps/dataset";
import { datasetBox, unionBox } from "@/lib/steps/extent";
import { stepRunner } from "@/lib/steps/runners";
import { resolveStep, stepSources, type TResolvedStep } from "@/lib/steps/step-schema";

function tryResolve(step: Parameters<typeof resolveStep>[0], params: Record<string, unknown>): TResolvedStep | null {
  try {
    return resolveStep(step, params);
  } catch {
    return null;
  }
}

/**
 * The box each layer input of `flow` needs to be read within, for `inputs` (layer inputs may be
 * in memory or `TLayerSource`s; caller areas, tables and GeoJSON are read for their boxes) and
 * `params` (defaults applied). Returns input name -> box, or null for the whole layer, for
 * every input of kind `layer`.
 */
export function planLayerBoxes(flow: TFlowVersion, inputs: TResolvedInputs, params: Record<string, unknown>): Record<string, TBox | null> {
  const order = topologicalOrder(flow.steps).map((step) => ({ step, resolved: tryResolve(step, params), def: stepRunner(step.type)! }));

  const inputData = new Map<string, TDataset | null | undefined>();
  const extents = new Map<string, TBox | null>();
  for (const input of flow.inputs) {
    const ds = inputs[input.name] ?? null;
    inputData.set(input.name, ds !== null && ds.kind === "layer-source" ? undefined : ds);
    extents.set(input.name, ds === null ? null : ds.kind === "layer-source" ? ds.bbox : datasetBox(ds));
  }
  const sources: TPlanSources = {
    extent: (name) => extents.get(name) ?? null,
    data: (name) => inputData.get(name),
  };
  for (const { step, resolved, def } of order) extents.set(step.id, resolved && def.extent ? def.extent(resolved, sources) : null);

  // Absent: nothing needed (yet); null: everything.
  const needed = new Map<string, TBox | null>();
  const need = (name: string, box: TBox | null) => {
    const had = needed.get(name);
    needed.set(name, had === undefined ? box : had === null || box === null ? null : unionBox(had, box));
  };
  for (const r of flow.results) need(r.from, null);
  for (const { step, resolved, def } of [...order].reverse()) {
    if (!needed.has(step.id)) continue;
    const boxes: Partial<Record<string, TBox | null>> = resolved && def.demand ? def.demand(resolved, needed.get(step.id)!, sources) : {};
    for (const src of stepSources(step)) need(src.name, boxes[src.spec.key] ?? null);
  }

  return Object.fromEntries(flow.inputs.filter((i) => i.kind === "layer").map((i) => [i.name, needed.get(i.name) ?? null]));
}
