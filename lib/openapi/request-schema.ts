/**
 * The request body schema of `POST /runs` in the OpenAPI document: the JSON Schema the flow
 * version derives (lib/flows/run-request.ts), with the documentation the flow does not
 * carry itself (input forms, limits, format defaults, wait_seconds).
 */
import type { TFlowVersion } from "@/lib/flows/definition";
import { MAX_INPUT_ROWS, MAX_WAIT_SECONDS, runRequestJsonSchema } from "@/lib/flows/run-request";
import { DEFAULT_FORMAT } from "@/lib/formats/registry";
import { declaredGeometry, withReadableLayers, type TReadableLayer } from "@/lib/flows/input-geometry";
import type { TJsonSchema } from "@/lib/openapi/types";

/**
 * The request body schema with the documentation the flow does not carry itself, and on each
 * layer and table input the readable layers of the environment that fit it (`readable`;
 * lib/flows/input-geometry.ts `withReadableLayers`: `examples` and a description on
 * `layer_id`, `x-readable-layers` on the input).
 */
export function requestSchema(flow: TFlowVersion, readable: readonly TReadableLayer[] = []): TJsonSchema {
  // Without `$schema`: the document's dialect is OpenAPI 3.1's default, 2020-12.
  const { $schema: _drop, ...s } = runRequestJsonSchema(flow) as { properties: Record<string, TJsonSchema> } & TJsonSchema;
  const props = s.properties;
  // Each input says which kind of layer it takes (`x-input-kind`: layer, table or area) and a
  // layer input its geometry (`x-geometry`: point, line, polygon or any), so a reader (the docs
  // page) can offer a readable layer that fits in its examples.
  const inputProps = (props.inputs?.properties ?? {}) as Record<string, TJsonSchema>;
  // Table inputs with declared columns also list them (`x-columns`), as the docs page and Try it show them.
  for (const input of flow.inputs) {
    if (!inputProps[input.name]) continue;
    inputProps[input.name] = {
      ...withReadableLayers(inputProps[input.name]!, input, readable),
      "x-input-kind": input.kind,
      ...(input.kind === "layer" ? { "x-geometry": declaredGeometry(input) } : {}),
      ...(input.columns?.length ? { "x-columns": input.columns } : {}),
    };
  }
  props.inputs = {
    ...props.inputs,
    description:
      'One value per input of the flow, exactly one form each: {"layer_id"} (a layer this environment may read), {"geojson"} (a GeoJSON FeatureCollection, RFC 7946), ' +
      `{"rows"} (table rows, at most ${MAX_INPUT_ROWS}), {"area"} (one valid, simple GeoJSON Polygon), ` +
      '{"href", "type"?} (a layer or table: an https URL of a GeoJSON, GeoJSON Text Sequence, CSV or GeoParquet file that the service fetches when the run starts; a failed fetch fails the run with invalid_input); null only for optional inputs.',
  };
  if (props.parameters) props.parameters = { ...props.parameters, description: "Parameters of the flow; omitted ones take their default." };
  if (props.formats) {
    props.formats = {
      ...props.formats,
      description: `File format per result key. Defaults: ${DEFAULT_FORMAT.layer} for layers, ${DEFAULT_FORMAT.table} for tables. Both formats stay downloadable with ?format=.`,
    };
  }
  props.wait_seconds = {
    ...props.wait_seconds,
    description: `Wait up to this many seconds (0..${MAX_WAIT_SECONDS}) for the run to finish: 200 with the final run if it does, else 202.`,
  };
  return s;
}
