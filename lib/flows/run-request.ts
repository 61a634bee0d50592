/**
 * The run request body of one flow version, derived from the flow (nothing mapped by hand).
 *
 * ```json
 * { "inputs":      { "<input name>": <input value> | null (optional inputs only) },
 *   "parameters"?: { "<parameter name>": <value> },
 *   "formats"?:    { "<result key>": "geojson"|"geoparquet" (layer) | "csv"|"parquet" (table) },
 *   "wait_seconds"?: 0..60 (integer),
 *   "subscriber"?: { "successUri"?, "inProgressUri"?, "failedUri"? } (lib/flows/subscriber.ts) }
 * ```
 * Input values, exactly one form: `{"layer_id": string}` (layer or table inputs),
 * `{"geojson": FeatureCollection}` (layer, <= 5,000 features, RFC 7946 checked by
 * lib/geo/validate-geojson.ts; each geometry of the input's declared `geometry` family,
 * lib/flows/input-geometry.ts; properties of declared `columns` have their type and range), `{"rows": [object, ...]}` (table, <= 5,000 rows of JSON
 * scalars), `{"area": Polygon}` (area; valid and simple), `{"href": URL, "type"?: media type}`
 * (layer or table: a file the worker fetches, lib/flows/href-input.ts; only the URL's form is
 * checked here, its host against the environment by lib/runs/href-input.ts). All objects are strict: unknown keys
 * are errors. Parameters: type, range and enum checked; unknown ones are errors; required
 * ones without default must be present.
 *
 * Errors: `parseRunRequest` returns `{field, code, message}` per faulty field, `field` being an
 * RFC 6901 JSON Pointer into the request body (e.g. `/inputs/area/area/coordinates/0`), as in
 * design.md's 422 body. All faults of a request are listed. With the zod schema directly
 * (`runRequestSchema(flow).safeParse(body)`), turn `error.issues` into the same list with
 * `fieldErrors(issues, body)` of lib/errors/zod-issues.ts.
 */
import { z } from "zod";
import type { FeatureCollection, Polygon } from "geojson";
import { FORMATS_BY_KIND, type TResultFormat } from "../formats/registry";
import { GEOMETRY_TYPES, MAX_GEOJSON_FEATURES, validateArea, validateFeatureCollection, type TGeoJsonIssue } from "../geo/validate-geojson";
import type { TDataset, TRow } from "../engine/types";
import { tableFromRows } from "../steps/dataset";
// Not ./definition: that module brings flow validation, and with it the expression compiler, into the design tool's browser bundle.
import { columnValueSchema, parameterValueSchema, type TFlowVersion, type TInput, type TParameter } from "../engine/flow-document";
import { fieldErrors, flattenZodIssues } from "../errors/zod-issues";
import type { TFieldError } from "../errors/field-error";
import { declaredGeometry, describeGeometry, GEOMETRY_TYPES_OF, geometryTypeFits } from "./input-geometry";
import { ZSubscriber, type TSubscriber } from "./subscriber";
import { HREF_MEDIA_TYPES } from "./href-input";

/** Most rows accepted in one `rows` input value (spec "Limits"). */
export const MAX_INPUT_ROWS = 5_000;
export const MAX_WAIT_SECONDS = 60;

/** A file by reference (lib/flows/href-input.ts). */
export interface THrefValue {
  href: string;
  type?: string;
}

export type TInputValue = { layer_id: string } | { geojson: FeatureCollection } | { rows: TRow[] } | { area: Polygon } | THrefValue;

/** Whether an input value is a file by reference. */
export function isHrefValue(v: unknown): v is THrefValue {
  return typeof v === "object" && v !== null && typeof (v as { href?: unknown }).href === "string";
}

export interface TRunRequest {
  inputs: Record<string, TInputValue | null>;
  parameters: Record<string, unknown>;
  formats: Record<string, TResultFormat>;
  wait_seconds?: number;
  /** Callback URIs for this run (lib/flows/subscriber.ts). */
  subscriber?: TSubscriber;
}

const ZLayerId = z.strictObject({ layer_id: z.string().min(1).max(200) });
/** `{"href", "type"?}` of a layer input (`what` says which files fit) or a table input. */
const hrefSchema = (what: string) =>
  z.strictObject({
    href: z
      .string()
      .max(4096)
      .regex(/^https?:\/\/\S+$/i, "Expected an absolute https URL")
      .describe(`URL of ${what}, fetched when the run starts`),
    type: z.enum(HREF_MEDIA_TYPES).optional().describe("Media type of the file, when the server does not say it and the URL has no telling extension"),
  });
const ZLayerHref = hrefSchema("a GeoJSON, GeoJSON Text Sequence, CSV (points from its longitude/latitude columns) or GeoParquet file");
const ZTableHref = hrefSchema("a CSV file (each row one row of the table, longitude/latitude columns included)");
const ZScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const rowsMax = `At most ${MAX_INPUT_ROWS} rows are accepted`;
const ZRows = z.strictObject({ rows: z.array(z.record(z.string(), ZScalar)).max(MAX_INPUT_ROWS, rowsMax) });

/**
 * `{"rows": [...]}` of a table input: with declared columns each row is an object whose
 * declared cells have their type and range (errors name the cell, e.g.
 * `/inputs/places/rows/17/lon`) and whose other cells are JSON scalars.
 */
function rowsSchema(input: TInput): z.ZodType {
  if (!input.columns?.length) return ZRows;
  return z.strictObject({ rows: z.array(declaredObject(input).catchall(ZScalar)).max(MAX_INPUT_ROWS, rowsMax) });
}

/** An object whose declared columns (`input.columns`, at least one) have their type and range. */
function declaredObject(input: TInput) {
  return z.object(Object.fromEntries((input.columns ?? []).map((c) => [c.name, columnValueSchema(c)])));
}

// Structural shapes for documentation (JSON Schema); the real checks are in validate-geojson.ts.
const ZPositionDoc = z.array(z.number()).min(2).max(3);
const ZPolygonDoc = z.strictObject({ type: z.literal("Polygon"), coordinates: z.array(z.array(ZPositionDoc).min(4)).min(1) });

/** Adds a fault to `ctx` with its code (which `flattenZodIssues` reads from `params.code`); `z.NEVER` for a transform to return. */
function fault(ctx: z.core.$RefinementCtx, code: string, message: string, path: PropertyKey[] = []): typeof z.NEVER {
  ctx.addIssue({ code: "custom", path, message, params: { code } });
  return z.NEVER;
}

function geoIssues(ctx: z.core.$RefinementCtx, issues: TGeoJsonIssue[], prefix: (string | number)[]) {
  for (const i of issues) fault(ctx, i.code, i.message, [...prefix, ...i.path]);
}

const ZGeoJsonChecked = z.strictObject({ geojson: z.unknown() }).superRefine((v, ctx) => geoIssues(ctx, validateFeatureCollection(v.geojson), ["geojson"]));

const GEOJSON_GEOMETRY_TYPES: ReadonlySet<string> = new Set(GEOMETRY_TYPES);

/**
 * `{"geojson"}` of a layer input: RFC 7946 checks; then, for a layer input declaring a geometry
 * (`point`, `line`, `polygon`), each feature's geometry type must be of that family
 * (lib/flows/input-geometry.ts; a fault names `/inputs/<name>/geojson/features/<i>/geometry/type`;
 * features without geometry pass); then each feature's declared properties (errors name them,
 * e.g. `/inputs/cities/geojson/features/3/properties/population`).
 */
function geoJsonChecked(input: TInput): z.ZodType {
  const declared = declaredGeometry(input);
  const props = input.columns?.length ? declaredObject(input) : null;
  if (declared === "any" && !props) return ZGeoJsonChecked;
  return ZGeoJsonChecked.superRefine((v, ctx) => {
    const features = (v.geojson as { features?: unknown } | null)?.features;
    if (!Array.isArray(features)) return;
    if (declared !== "any")
      features.forEach((f, i) => {
        const type = (f as { geometry?: { type?: unknown } | null } | null)?.geometry?.type;
        // Unknown type names are validate-geojson's to report; one fault per field.
        if (typeof type !== "string" || !GEOJSON_GEOMETRY_TYPES.has(type) || geometryTypeFits(declared, type)) return;
        const message = `A ${type} feature; input "${input.name}" needs ${describeGeometry(declared)}`;
        fault(ctx, "wrong_geometry_type", message, ["geojson", "features", i, "geometry", "type"]);
      });
    if (props)
      features.forEach((f, i) => {
        const p = (f as { properties?: unknown } | null)?.properties ?? {};
        const r = props.safeParse(typeof p === "object" && !Array.isArray(p) ? p : {});
        if (r.success) return;
        for (const e of flattenZodIssues(r.error.issues, p)) fault(ctx, e.code, e.message, ["geojson", "features", i, "properties", ...e.path]);
      });
  });
}

/** Documentation shape of `{"geojson"}`: the declared geometry types and the declared columns as the features' properties. */
function geoJsonDoc(input: TInput): z.ZodType {
  const declared = declaredGeometry(input);
  const properties = input.columns?.length ? declaredObject(input).catchall(z.unknown()) : z.record(z.string(), z.unknown()).nullable();
  const type = declared === "any" ? z.string() : z.enum(GEOMETRY_TYPES_OF[declared] as [string, ...string[]]);
  const feature = z.looseObject({ type: z.literal("Feature"), geometry: z.looseObject({ type }).nullable(), properties });
  return z.strictObject({ geojson: z.looseObject({ type: z.literal("FeatureCollection"), features: z.array(feature).max(MAX_GEOJSON_FEATURES) }) });
}
const ZAreaChecked = z.strictObject({ area: z.unknown() }).superRefine((v, ctx) => geoIssues(ctx, validateArea(v.area), ["area"]));

function formsOf(input: TInput, checked: boolean): Record<string, z.ZodType> {
  switch (input.kind) {
    case "layer":
      return { layer_id: ZLayerId, geojson: checked ? geoJsonChecked(input) : geoJsonDoc(input), href: ZLayerHref };
    case "table":
      return { layer_id: ZLayerId, rows: rowsSchema(input), href: ZTableHref };
    case "area":
      return { area: checked ? ZAreaChecked : z.strictObject({ area: ZPolygonDoc }) };
  }
}

/** Schema of one input value. `checked`: with full GeoJSON checks and exact per-form errors (validation); else a plain union (docs). */
function inputValueSchema(input: TInput, checked: boolean): z.ZodType {
  const forms = formsOf(input, checked);
  const names = Object.keys(forms);
  let s: z.ZodType;
  if (!checked) {
    const list = Object.values(forms);
    s = list.length === 1 ? list[0] : z.union(list as [z.ZodType, z.ZodType]);
  } else {
    // Pick the form by its key so that errors name the faulty field, not "no union member matched".
    s = z.unknown().transform((v, ctx) => {
      const expected = `one of ${names.map((n) => `{"${n}": ...}`).join(", ")}`;
      if (v === undefined) return fault(ctx, "required", `Required: ${expected}`);
      if (typeof v !== "object" || v === null || Array.isArray(v))
        return fault(ctx, "invalid_form", `Expected ${expected}${v === null ? " (null only for optional inputs)" : ""}`);
      const present = Object.keys(v).filter((k) => k in forms);
      if (present.length === 0) return fault(ctx, "invalid_form", `Expected ${expected} for an input of kind ${input.kind}`);
      if (present.length > 1) return fault(ctx, "invalid_form", `Give exactly one of ${present.join(", ")}`);
      const r = forms[present[0]].safeParse(v);
      if (r.success) return r.data as TInputValue;
      for (const e of flattenZodIssues(r.error.issues, v)) fault(ctx, e.code, e.message, e.path);
      return z.NEVER;
    });
  }
  const described = input.description ? s.describe(input.description) : s;
  return input.optional ? described.nullable().optional() : described;
}

function parametersSchema(flow: TFlowVersion): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const p of flow.parameters) {
    let s = parameterValueSchema(p);
    if (p.description) s = s.describe(p.description);
    const needed = p.required && p.default === undefined;
    shape[p.name] = needed ? s : p.default !== undefined ? s.optional().meta({ default: p.default }) : s.optional();
  }
  return z.strictObject(shape);
}

function buildSchema(flow: TFlowVersion, checked: boolean) {
  const inputs: Record<string, z.ZodType> = {};
  for (const i of flow.inputs) inputs[i.name] = inputValueSchema(i, checked);
  const formats: Record<string, z.ZodType> = {};
  for (const r of flow.results) formats[r.key] = z.enum(FORMATS_BY_KIND[r.kind]).optional();
  const anyRequired = flow.parameters.some((p) => p.required && p.default === undefined);
  const params = parametersSchema(flow);
  return z.strictObject({
    inputs: z.strictObject(inputs),
    // When parameters are needed but absent, report each missing one (validation mode).
    parameters: anyRequired ? (checked ? z.preprocess((v) => (v === undefined ? {} : v), params) : params) : params.optional(),
    formats: z.strictObject(formats).optional(),
    wait_seconds: z.number().int().min(0).max(MAX_WAIT_SECONDS).optional(),
    subscriber: ZSubscriber.optional(),
  });
}

/** Zod schema that validates a run request body of `flow` (see module doc). Output: `TRunRequest` without defaults. */
export function runRequestSchema(flow: TFlowVersion): z.ZodType {
  // Built once per flow object: the API caches the resolved flow, so every request to a
  // published API reuses the same schema instead of constructing it again.
  let schema = schemaCache.get(flow);
  if (!schema) {
    schema = buildSchema(flow, true);
    schemaCache.set(flow, schema);
  }
  return schema;
}

const schemaCache = new WeakMap<TFlowVersion, z.ZodType>();

/** JSON Schema (draft 2020-12) of the run request body of `flow`, for OpenAPI and MCP tool arguments. */
export function runRequestJsonSchema(flow: TFlowVersion): Record<string, unknown> {
  return z.toJSONSchema(buildSchema(flow, false), { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}

/** Parameters with defaults filled in; parameters absent and without default are left out. */
export function applyParameterDefaults(flow: TFlowVersion, params: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(params ?? {}) };
  for (const p of flow.parameters as TParameter[]) if (out[p.name] === undefined && p.default !== undefined) out[p.name] = p.default;
  return out;
}

/**
 * Validates a run request body against `flow`. On success, parameters have their defaults
 * applied, `formats` is an object (possibly empty) and omitted optional inputs are null.
 */
export function parseRunRequest(flow: TFlowVersion, body: unknown): { ok: true; request: TRunRequest } | { ok: false; errors: TFieldError[] } {
  const r = runRequestSchema(flow).safeParse(body);
  if (!r.success) return { ok: false, errors: fieldErrors(r.error.issues, body) };
  const d = r.data as Partial<TRunRequest> & { inputs: Record<string, TInputValue | null | undefined> };
  const inputs: Record<string, TInputValue | null> = {};
  for (const i of flow.inputs) inputs[i.name] = d.inputs[i.name] ?? null;
  const request: TRunRequest = { inputs, parameters: applyParameterDefaults(flow, d.parameters), formats: { ...(d.formats ?? {}) } };
  if (d.wait_seconds !== undefined) request.wait_seconds = d.wait_seconds;
  if (d.subscriber !== undefined) request.subscriber = d.subscriber;
  return { ok: true, request };
}

/**
 * Caller data (a validated `geojson`, `rows` or `area` value) as an engine dataset; null for
 * `layer_id` and `href` (the caller resolves layers and fetches files) and for omitted inputs. Null feature properties
 * become `{}`; table columns are the row keys in first-appearance order.
 */
export function callerDataToDataset(value: TInputValue | null): TDataset | null {
  if (value === null || "layer_id" in value || "href" in value) return null;
  if ("geojson" in value)
    return {
      kind: "features",
      features: value.geojson.features.map((f) => ({ ...f, properties: (f.properties ?? {}) as Record<string, unknown> })),
    };
  if ("rows" in value) {
    const seen = new Set<string>();
    for (const r of value.rows) for (const k of Object.keys(r)) seen.add(k);
    return tableFromRows([...seen], value.rows);
  }
  return { kind: "area", geometry: value.area };
}
