/**
 * `components.schemas` of the OpenAPI document, derived from the zod schemas of the
 * responses (lib/runs/run-document.ts, lib/http/problem.ts, lib/errors/field-error.ts) with
 * `z.toJSONSchema` (JSON Schema 2020-12, OpenAPI 3.1's dialect), then narrowed to one API:
 * `api` is that API's slug and result keys are its flow's. The request body schema of
 * `POST /runs` is the JSON Schema the flow version derives (lib/flows/run-request.ts), with the
 * documentation the flow does not carry itself (input forms, limits, format defaults, wait_seconds).
 */
import { z } from "zod";
import type { TFlowVersion } from "@/lib/flows/definition";
import { MAX_INPUT_ROWS, MAX_WAIT_SECONDS, runRequestJsonSchema } from "@/lib/flows/run-request";
import { DEFAULT_FORMAT } from "@/lib/formats/registry";
import { declaredGeometry, withReadableLayers, type TReadableLayer } from "@/lib/flows/input-geometry";
import { ZFieldError } from "@/lib/errors/field-error";
import { ZProblem } from "@/lib/http/problem";
import { ZResultEntry, ZRunDocument, ZRunError, ZRunList } from "@/lib/runs/run-document";
import { errorCodeTable } from "@/lib/openapi/problems";
import type { TJsonSchema } from "@/lib/openapi/types";

const SCHEMAS = { Run: ZRunDocument, RunResult: ZResultEntry, RunError: ZRunError, RunList: ZRunList, Problem: ZProblem, FieldError: ZFieldError };

/** The response schemas as JSON Schema, once per process (they do not depend on the flow). */
let cached: Record<string, TJsonSchema> | null = null;

function responseSchemas(): Record<string, TJsonSchema> {
  if (cached) return cached;
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(SCHEMAS)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    // Keep the document readable: formats speak for themselves without zod's regexes, and
    // integers need no ±2^53 bounds.
    override: ({ jsonSchema: s }) => {
      if (typeof s.format === "string") delete s.pattern;
      if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
      if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
    },
  }) as { schemas: Record<string, TJsonSchema> };
  cached = Object.fromEntries(
    Object.entries(out.schemas).map(([id, schema]) => {
      const { $schema: _s, $id: _i, ...rest } = schema;
      return [id, rest];
    }),
  );
  return cached;
}

type TObjectSchema = TJsonSchema & { properties: Record<string, TJsonSchema> };

/** Every schema of the document of `api` serving `flow` (`readable`: the layers its environment may read). */
export function buildSchemas(flow: TFlowVersion, api: string, readable: readonly TReadableLayer[] = []): Record<string, TJsonSchema> {
  const base = structuredClone(responseSchemas());
  const run = base.Run as TObjectSchema;
  run.properties.api = { type: "string", const: api };
  const result = base.RunResult as TObjectSchema;
  result.properties.key = { type: "string", enum: flow.results.map((r) => r.key) };
  const problem = base.Problem as TObjectSchema;
  problem.properties.code = {
    ...problem.properties.code,
    description: "Stable error code; `x-error-codes` lists each with its status and title.",
    "x-error-codes": errorCodeTable(),
  };
  return { RunRequest: requestSchema(flow, readable), ...base };
}

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
