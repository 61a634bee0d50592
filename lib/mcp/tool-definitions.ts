/**
 * The MCP tools of a key (design.md "MCP"): one per Flow API it may use, plus `run_status`,
 * `run_result`, `run_cancel` and `list_layers` (the layers the environment may read, with the
 * tool arguments each fits). This module builds what `tools/list` shows (names, titles,
 * descriptions, argument and output JSON Schemas) and turns a tool call's arguments back
 * into the run request of `POST /runs`, so both doors validate with the same code.
 *
 * - Name: the API slug with `-` → `_` (`country-stats` → `country_stats`), within the MCP
 *   tool-name rules (`[A-Za-z0-9_.-]`, 1..128).
 * - Arguments: the flow's inputs and parameters side by side at the top level, each with the
 *   JSON Schema piece of the HTTP request body (lib/flows/run-request.ts
 *   `runRequestJsonSchema`: forms, descriptions, defaults, ranges, enums), plus optional
 *   `formats` (as over HTTP) and `wait_seconds` (integer 0..55, default 20: under the 60 s
 *   request time-out most clients use). Flows whose input and parameter names collide are
 *   never offered (lib/flows/ai-tool-collisions.ts). A layer or table input's description
 *   names the readable layers that fit it (kind and declared geometry), and its `layer_id`
 *   has them as `examples`.
 * - Output: the run document of the HTTP API (`ZRunDocument`) plus `next`, a sentence saying
 *   what to call next (run_status while the run is not finished, run_result once it completed).
 *
 * Argument errors name the argument by JSON Pointer into the arguments (`/area/area/coordinates/0`,
 * `/min_population`, `/wait_seconds`), mapped from the request pointers the domain reports.
 */
import { z } from "zod";
import type { TFieldError } from "@/lib/errors";
import { fieldErrors, parseOrThrow } from "@/lib/errors/zod-issues";
import { AI_TOOL_RESERVED_ARGUMENTS } from "@/lib/flows/ai-tool-collisions";
import type { TFlowVersion } from "@/lib/flows/definition";
import {
  declaredGeometry,
  describeFittingLayers,
  describeGeometry,
  layerKindOf,
  layerMismatch,
  withReadableLayers,
  type TReadableLayer,
} from "@/lib/flows/input-geometry";
import { MAX_INPUT_ROWS, runRequestJsonSchema } from "@/lib/flows/run-request";
import { DEFAULT_FORMAT, FORMAT_NAMES, ZResultFormat } from "@/lib/formats/registry";
import { ZRunDocument } from "@/lib/runs/run-document";

/** `wait_seconds` of a tool call: default and maximum (under the common 60 s client time-out). */
export const TOOL_WAIT_DEFAULT_SECONDS = 20;
export const TOOL_WAIT_MAX_SECONDS = 55;

type TJsonSchema = Record<string, unknown>;

/** Tool name of an API slug. */
export function toolName(slug: string): string {
  return slug.replace(/-/g, "_");
}

const INPUT_FORMS: Record<"layer" | "table" | "area", string> = {
  layer:
    '{"layer_id": "<a layer this environment may read>"}, {"geojson": <GeoJSON FeatureCollection, RFC 7946>} or {"href": "<https URL of a GeoJSON, GeoJSON Text Sequence, CSV with lon/lat or GeoParquet file>"}',
  table: `{"layer_id": "<a table this environment may read>"}, {"rows": [<objects>, at most ${MAX_INPUT_ROWS}]} or {"href": "<https URL of a CSV file without lon/lat columns>"}`,
  area: '{"area": <one valid GeoJSON Polygon, WGS 84 lon/lat>}',
};

/** `wait_seconds` of a tool call: an integer 0..55, `defaultSeconds` when absent. */
function waitSeconds(defaultSeconds: number) {
  const error = `Use an integer from 0 to ${TOOL_WAIT_MAX_SECONDS}.`;
  return z
    .int({ error })
    .min(0, { error })
    .max(TOOL_WAIT_MAX_SECONDS, { error })
    .default(defaultSeconds)
    .describe(
      `Seconds to wait for the run to finish (0..${TOOL_WAIT_MAX_SECONDS}, default ${defaultSeconds}). A run still going after that keeps running; the answer then carries its run_id.`,
    );
}
const ZFlowToolWait = waitSeconds(TOOL_WAIT_DEFAULT_SECONDS);

const schemaCache = new WeakMap<TFlowVersion, TJsonSchema>();

/** What an input's description says about the layers it may name: those readable that fit, or that none does. */
function layersSentence(input: TFlowVersion["inputs"][number], readable: readonly TReadableLayer[]): string {
  if (input.kind === "area") return "";
  const listed = describeFittingLayers(readable, input);
  const geometry = declaredGeometry(input);
  const what = input.kind === "table" ? "tables" : geometry === "any" ? "feature layers" : `feature layers of ${describeGeometry(geometry)}`;
  return listed ? `Readable ${what} for layer_id: ${listed}.` : `No readable ${what} fit: send your own data.`;
}

/**
 * The argument JSON Schema of a Flow API tool (see module doc); each layer and table input
 * names the readable layers that fit it (`readable`, lib/flows/input-geometry.ts
 * `withReadableLayers`): in its description and as `examples` of `layer_id` (without
 * `readable`, the flow's schema alone).
 */
export function toolInputSchema(flow: TFlowVersion, readable?: readonly TReadableLayer[]): TJsonSchema {
  const base = baseInputSchema(flow);
  if (!readable) return base;
  const properties = { ...(base.properties as Record<string, TJsonSchema>) };
  for (const input of flow.inputs) {
    const sentence = layersSentence(input, readable);
    if (!sentence) continue;
    const piece = withReadableLayers(properties[input.name]!, input, readable);
    properties[input.name] = { ...piece, description: `${String(piece.description ?? "")} ${sentence}`.trim() };
  }
  return { ...base, properties };
}

/** The part of the argument schema that depends on the flow only (built once per flow). */
function baseInputSchema(flow: TFlowVersion): TJsonSchema {
  const cached = schemaCache.get(flow);
  if (cached) return cached;
  const request = runRequestJsonSchema(flow) as { properties: Record<string, { properties?: Record<string, TJsonSchema>; required?: string[] }> };
  const inputs = request.properties.inputs ?? {};
  const params = request.properties.parameters ?? {};
  const properties: Record<string, TJsonSchema> = {};
  for (const input of flow.inputs) {
    const piece = inputs.properties?.[input.name] ?? {};
    const forms = INPUT_FORMS[input.kind];
    const geometry = declaredGeometry(input);
    const shape = geometry === "any" ? "" : `Features of ${describeGeometry(geometry)} only.`;
    const described = [input.description, `Input (${input.kind}): ${forms}.`, shape, input.optional ? "Optional: omit it or send null." : ""]
      .filter(Boolean)
      .join(" ");
    properties[input.name] = { ...piece, description: described };
  }
  for (const p of flow.parameters) properties[p.name] = { ...(params.properties?.[p.name] ?? {}) };
  if (request.properties.formats) {
    properties.formats = {
      ...request.properties.formats,
      description: `File format per result key. Defaults: ${DEFAULT_FORMAT.layer} for layers, ${DEFAULT_FORMAT.table} for tables.`,
    };
  }
  properties.wait_seconds = jsonSchemaOf(ZFlowToolWait, "input");
  const required = [...(inputs.required ?? []), ...(params.required ?? [])];
  const schema: TJsonSchema = { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
  schemaCache.set(flow, schema);
  return schema;
}

/** What the description says about a parameter: type, range, enum, default. */
function parameterSummary(p: TFlowVersion["parameters"][number]): string {
  const bits: string[] = [p.type === "enum" ? `one of ${p.values.map((v) => JSON.stringify(v)).join(", ")}` : p.type];
  if (p.type === "number" || p.type === "integer") {
    if (p.minimum !== undefined) bits.push(`>= ${p.minimum}`);
    if (p.exclusiveMinimum !== undefined) bits.push(`> ${p.exclusiveMinimum}`);
    if (p.maximum !== undefined) bits.push(`<= ${p.maximum}`);
    if (p.exclusiveMaximum !== undefined) bits.push(`< ${p.exclusiveMaximum}`);
  }
  if (p.default !== undefined) bits.push(`default ${JSON.stringify(p.default)}`);
  else if (p.required) bits.push("required");
  return `${p.name} (${bits.join(", ")})${p.description ? `: ${p.description}` : ""}`;
}

/**
 * The description of a Flow API tool: what it does, its inputs (with the readable layers that
 * fit each, from `readable`), parameters, results, waiting and retention.
 */
export function toolDescription(
  api: { name: string; description: string | null; flowName: string | null; flow: TFlowVersion },
  retentionHours: number,
  readable?: readonly TReadableLayer[],
): string {
  const { flow } = api;
  const sentence = (t: string) => (/[.!?]$/.test(t.trim()) ? t.trim() : `${t.trim()}.`);
  const what = [sentence(api.description ?? api.name)];
  if (flow.description && flow.description !== api.description) what.push(sentence(`Flow${api.flowName ? ` "${api.flowName}"` : ""}: ${flow.description}`));
  const lines = [
    what.join(" "),
    sentence(
      `Inputs: ${flow.inputs.map((i) => `${i.name} (${i.kind}${i.optional ? ", optional" : ""}${i.description ? `: ${i.description}` : ""})`).join("; ")}`,
    ),
  ];
  const layerLines = readable ? flow.inputs.map((i) => layersSentence(i, readable) && `${i.name}: ${layersSentence(i, readable)}`).filter(Boolean) : [];
  if (layerLines.length) lines.push(`Layers (list_layers lists every readable one): ${layerLines.join(" ")}`);
  if (flow.parameters.length) lines.push(sentence(`Parameters: ${flow.parameters.map(parameterSummary).join("; ")}`));
  lines.push(sentence(`Results: ${flow.results.map((r) => `${r.key} (${r.kind}${r.description ? `: ${r.description}` : ""})`).join("; ")}`));
  lines.push(
    `Waits up to wait_seconds (default ${TOOL_WAIT_DEFAULT_SECONDS}, at most ${TOOL_WAIT_MAX_SECONDS}) and answers with the finished run and links to its result files (small ones inline). ` +
      `A longer run is answered with its run_id: call run_status until it is completed, then run_result for a file. ` +
      `Result files are kept ${retentionHours} hours after the run finished.`,
  );
  return lines.join("\n");
}

/** `list_layers` answers (structured content): every readable layer and the tool inputs it fits. */
export const ZToolLayerList = z.object({
  layers: z.array(
    z.object({
      id: z.string().describe('What an input takes as {"layer_id": "<id>"}.'),
      name: z.string(),
      kind: z.enum(["features", "table"]),
      geometry_types: z.array(z.string()).describe("GeoJSON geometry types of its features; empty for tables and when not recorded."),
      item_count: z.int().min(0).describe("Features or rows."),
      fits: z.array(z.string()).describe("The tool arguments it fits, as <tool>.<argument>."),
    }),
  ),
});
export type TToolLayerList = z.infer<typeof ZToolLayerList>;

/**
 * The `list_layers` answer for the layers the key's environment may read and the key's tools.
 * A layer fits only tools of its workspace (a run's `layer_id` resolves in its API's workspace)
 * when both name one.
 */
export function toolLayerList(
  readable: readonly (TReadableLayer & { workspaceId?: string })[],
  tools: readonly { name: string; flow: TFlowVersion; workspaceId?: string }[],
): TToolLayerList {
  const sameWorkspace = (l: { workspaceId?: string }, t: { workspaceId?: string }) =>
    l.workspaceId === undefined || t.workspaceId === undefined || l.workspaceId === t.workspaceId;
  return {
    layers: readable.map((l) => ({
      id: l.id,
      name: l.name,
      kind: l.kind,
      geometry_types: [...l.geometryTypes],
      item_count: l.itemCount,
      fits: tools
        .filter((t) => sameWorkspace(l, t))
        .flatMap((t) => t.flow.inputs.filter((i) => layerKindOf(i) !== null && layerMismatch(l, i) === null).map((i) => `${t.name}.${i.name}`)),
    })),
  };
}

const ZRunId = z.string().meta({ format: "uuid" }).describe("The run_id a Flow API tool answered with.");

/**
 * The arguments of `run_status`, `run_result`, `run_cancel` and `list_layers`. A `run_id` is not
 * checked as a UUID: any id of no run of this key is "No such run".
 */
export const ZRunStatusArgs = z.strictObject({ run_id: ZRunId, wait_seconds: waitSeconds(0) });
export const ZRunResultArgs = z.strictObject({
  run_id: ZRunId,
  key: z.string().min(1).describe("A result key of the run (its results list them)."),
  format: z.enum(FORMAT_NAMES).optional().describe("geojson or geoparquet for layers, csv or parquet for tables; default: the format the run was asked for."),
});
export const ZRunCancelArgs = z.strictObject({ run_id: ZRunId });
export const ZListLayersArgs = z.strictObject({});

/**
 * A tool call's arguments parsed by `schema`; else AppError `validation_failed` naming each
 * faulty argument by JSON Pointer (`/run_id`, `/wait_seconds`).
 */
export function parseToolArguments<S extends z.ZodType>(schema: S, args: unknown): z.output<S> {
  return parseOrThrow(schema, args, "The arguments are not valid; nothing was done.");
}

/** Structured content of every tool that answers with a run: the HTTP run document plus `next`. */
export const ZToolRun = ZRunDocument.extend({
  next: z
    .string()
    .optional()
    .describe("What to call next: run_status while the run is queued or running, run_result once it completed; absent for a failed or cancelled run."),
});
export type TToolRun = z.infer<typeof ZToolRun>;

export const ZToolResultFile = z.object({
  run_id: z.uuid(),
  key: z.string(),
  format: ZResultFormat,
  media_type: z.string(),
  size_bytes: z.int().min(0),
  url: z.string().describe("Signed download link of this file: needs no API key or token, works until url_expires_at (run_result makes a new one)."),
  url_expires_at: z.iso.datetime().describe("When url stops working."),
  inline: z.boolean().describe("Whether the file's content is in this answer."),
});
export type TToolResultFile = z.infer<typeof ZToolResultFile>;

/** The JSON Schema of `schema` as a tool advertises it: its arguments (`io` "input") or its answer. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "output"): TJsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as TJsonSchema;
  return rest;
}
export const TOOL_RUN_OUTPUT: TJsonSchema = jsonSchemaOf(ZToolRun);
export const TOOL_RESULT_FILE_OUTPUT: TJsonSchema = jsonSchemaOf(ZToolResultFile);
export const TOOL_LAYER_LIST_OUTPUT: TJsonSchema = jsonSchemaOf(ZToolLayerList);

/** Maps a request-body pointer (`/inputs/area/...`, `/parameters/top`) to a tool-argument pointer (`/area/...`, `/top`). */
export function argumentPointer(field: string): string {
  return field.replace(/^\/(inputs|parameters)(?=\/)/, "");
}

/** The detail of a tool call's faults. */
export const argumentFaultsDetail = (n: number) => `The arguments have ${n} fault${n === 1 ? "" : "s"}; nothing was started.`;

/**
 * A Flow API tool call's arguments (inputs and parameters side by side) as the run request body
 * of the HTTP door, the faults of the arguments themselves (unknown ones, `wait_seconds`) named
 * by pointer into the arguments, and how long to wait (default when `wait_seconds` is faulty).
 * The body is then checked as every door checks it (lib/runs/check-run-request.ts, its fields
 * named as arguments by `argumentPointer`), so all faults of a call are listed at once.
 */
export function toolRunBody(flow: TFlowVersion, args: Record<string, unknown>): { body: Record<string, unknown>; errors: TFieldError[]; waitSeconds: number } {
  const errors: TFieldError[] = [];
  const inputNames = new Set(flow.inputs.map((i) => i.name));
  const paramNames = new Set(flow.parameters.map((p) => p.name));
  const inputs: Record<string, unknown> = {};
  const parameters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (inputNames.has(name)) inputs[name] = value;
    else if (paramNames.has(name)) parameters[name] = value;
    else if (!(AI_TOOL_RESERVED_ARGUMENTS as readonly string[]).includes(name)) {
      errors.push({ field: `/${name}`, code: "unknown_argument", message: `Unknown argument "${name}".` });
    }
  }
  const wait = ZFlowToolWait.safeParse(args.wait_seconds);
  if (!wait.success) errors.push(...fieldErrors(wait.error.issues, args.wait_seconds, ["wait_seconds"]));
  const body: Record<string, unknown> = { inputs, parameters };
  if (args.formats !== undefined) body.formats = args.formats;
  return { body, errors, waitSeconds: wait.success ? wait.data : TOOL_WAIT_DEFAULT_SECONDS };
}
