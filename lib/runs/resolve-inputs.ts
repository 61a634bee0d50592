/**
 * Turns the input values of a validated request into engine datasets:
 * `{layer_id}` -> the workspace layer, `{geojson}` -> its features, `{rows}` -> a table
 * (columns in first-seen order), `{area}` -> the polygon, `null` -> omitted.
 * Caller data is used for this run only and never stored as a layer.
 */
import "server-only";
import type { TFlowVersion } from "@/lib/flows/definition";
import type { TFeature, TResolvedInputs, TRow } from "@/lib/engine/types";
import type { Polygon } from "geojson";
import { loadLayer } from "@/lib/layers/load-layer";

type TInputValue = null | { layer_id: string } | { geojson: { features: TFeature[] } } | { rows: TRow[] } | { area: Polygon };

export async function resolveInputs(flow: TFlowVersion, values: Record<string, unknown>): Promise<TResolvedInputs> {
  const out: TResolvedInputs = {};
  for (const input of flow.inputs) {
    const v = (values[input.name] ?? null) as TInputValue;
    if (v === null) out[input.name] = null;
    else if ("layer_id" in v) out[input.name] = await loadLayer(v.layer_id);
    else if ("geojson" in v)
      out[input.name] = {
        kind: "features",
        features: v.geojson.features.map((f) => ({ ...f, properties: f.properties ?? {} })),
      };
    else if ("rows" in v) {
      const columns: string[] = [];
      const seen = new Set<string>();
      for (const row of v.rows) for (const k of Object.keys(row)) if (!seen.has(k)) (seen.add(k), columns.push(k));
      out[input.name] = { kind: "rows", columns, rows: v.rows };
    } else if ("area" in v) out[input.name] = { kind: "area", geometry: v.area };
  }
  return out;
}

/** The request as kept after the run is final: caller data replaced by a marker. */
export function withoutCallerData(request: { inputs?: Record<string, unknown>; parameters?: unknown }): object {
  const inputs: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(request.inputs ?? {})) {
    if (v && typeof v === "object" && !("layer_id" in v)) inputs[name] = { removed: Object.keys(v)[0] ?? "data" };
    else inputs[name] = v;
  }
  return { inputs, parameters: request.parameters ?? {} };
}
