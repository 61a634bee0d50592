/**
 * Turns the input values of a validated request into engine datasets:
 * `{layer_id}` -> the workspace layer, `{geojson}` -> its features, `{rows}` -> a table
 * (columns in first-seen order), `{area}` -> the polygon, `null` -> omitted.
 * Caller data is used for this run only and never stored as a layer.
 */
import "server-only";
import type { TFlowVersion } from "@/lib/flows/definition";
import { callerDataToDataset, type TInputValue } from "@/lib/flows/run-request";
import type { TResolvedInputs } from "@/lib/engine/types";
import { loadLayer } from "@/lib/layers/load-layer";

export async function resolveInputs(flow: TFlowVersion, values: Record<string, unknown>): Promise<TResolvedInputs> {
  const out: TResolvedInputs = {};
  for (const input of flow.inputs) {
    const v = (values[input.name] ?? null) as TInputValue | null;
    out[input.name] = v !== null && "layer_id" in v ? await loadLayer(v.layer_id) : callerDataToDataset(v);
  }
  return out;
}
