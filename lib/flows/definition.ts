/**
 * The flow version document: schema (`ZFlowVersion`), validation with JSON Pointers
 * (`validateFlowVersion`) and its JSON Schema (`flowVersionJsonSchema`).
 *
 * Document shape:
 * ```json
 * { "description"?: "...",
 *   "inputs":     [{ "name", "kind": "layer"|"table"|"area", "optional"?: false, "description"? }],
 *   "parameters": [{ "name", "type": "string"|"number"|"integer"|"boolean"|"enum",
 *                    "required"?, "default"?, "minimum"?, "maximum"?, "exclusiveMinimum"?,
 *                    "exclusiveMaximum"?, "values"? (enum), "description"? }],
 *   "steps":      [{ "id", "type", ...options, "description"? }],
 *   "results":    [{ "key", "kind": "layer"|"table", "from": <step id or input name>, "description"? }] }
 * ```
 * Names (input names, step ids, parameter names, result keys) match `^[A-Za-z_][A-Za-z0-9_]*$`
 * (they become API fields and expression variables). Input names and step ids share one
 * namespace: a step names its sources by input name or step id.
 *
 * Parameters in options: a top-level scalar option marked "param-able" in `STEP_CATALOG`
 * may be written `{"param": "<parameter name>"}`; the run's value is substituted before the
 * step runs and checked against the option's own schema. In expressions (MapLibre style
 * expressions) a parameter is read with `["var", "<parameter name>"]` (see
 * `lib/engine/expression.ts`).
 *
 * Kinds of data flowing between steps: `features` (a layer), `rows` (a table) and `area`
 * (one polygon; accepted wherever features are, as one feature without properties). A layer
 * result needs features (or an area), a table result needs rows.
 */
import { z } from "zod";
import { checkExpression, type TExpressionRole, type TParamDecl } from "../engine/expression";

// ---------------------------------------------------------------------------------------------
// Building blocks

export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ZName = z.string().max(64).regex(NAME_PATTERN, "Must start with a letter or _ and contain only letters, digits and _");
/** Reference to an input name or a step id. */
export const ZRef = ZName.describe("Name of an input or id of another step");
/** A property / column name; any non-empty text (unicode and spaces allowed). */
export const ZField = z.string().min(1).max(256);
/** `{"param": "<name>"}`: take the option's value from a run parameter. */
export const ZParamRef = z.strictObject({ param: ZName }).describe("Value taken from a run parameter");
export type TParamRef = z.infer<typeof ZParamRef>;

/** A MapLibre style expression (JSON array, or a literal). */
export const ZExpression = z
  .union([z.array(z.unknown()).min(1), z.string(), z.number(), z.boolean(), z.null()])
  .describe('MapLibre style expression; ["get", field] reads a property, ["var", param] a parameter');

/** Copy a field, optionally renamed: `"name"` or `{"from": "name", "as": "label"}`. */
export const ZFieldSpec = z.union([ZField, z.strictObject({ from: ZField, as: ZField })]);
export type TFieldSpec = z.infer<typeof ZFieldSpec>;

export const AGG_OPS = ["count", "sum", "min", "max", "mean"] as const;
/**
 * One aggregate. `count` without `field` counts items, with `field` counts non-null values;
 * `sum`/`min`/`max`/`mean` use the finite numbers of `field`. Empty group: count and sum 0,
 * min/max/mean null.
 */
export const ZAggregation = z.strictObject({ op: z.enum(AGG_OPS), field: ZField.optional(), as: ZField }).superRefine((a, ctx) => {
  if (a.op !== "count" && a.field === undefined)
    ctx.addIssue({ code: "custom", path: ["field"], message: `"${a.op}" needs a field`, params: { code: "missing_option" } });
});
export type TAggregation = z.infer<typeof ZAggregation>;

type TParamAccept = "string" | "number" | "integer" | "boolean" | "enum";
const PARAMABLE = new WeakMap<z.ZodType, TParamAccept[]>();

type TP<W extends boolean, T extends z.ZodType> = W extends true ? z.ZodUnion<[T, typeof ZParamRef]> : T;

// ---------------------------------------------------------------------------------------------
// Step catalog

const SOURCE = { any: ["features", "rows", "area"], features: ["features", "area"], rows: ["rows"] } as const;
export type TDataKind = "features" | "rows" | "area";

function makeSteps<W extends boolean>(withParams: W) {
  const p = <T extends z.ZodType>(base: T, accepts: TParamAccept[]): TP<W, T> => {
    if (!withParams) return base as TP<W, T>;
    const u = z.union([base, ZParamRef]);
    PARAMABLE.set(u, accepts);
    return u as TP<W, T>;
  };
  const NUM: TParamAccept[] = ["number", "integer"];
  const INT: TParamAccept[] = ["integer"];
  const STR: TParamAccept[] = ["string", "enum"];
  const BOOL: TParamAccept[] = ["boolean"];
  const step = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
    z.strictObject({ id: ZName, type: z.literal(type), description: z.string().optional(), ...shape });
  const km = p(z.number().positive().max(20_037), NUM);

  return {
    filter: step("filter", { source: ZRef, where: ZExpression }),
    select: step("select", { source: ZRef, fields: z.array(ZFieldSpec).min(1) }),
    compute: step("compute", { source: ZRef, field: ZField, expression: ZExpression }),
    sort: step("sort", {
      source: ZRef,
      field: p(ZField, STR),
      order: p(z.enum(["asc", "desc"]).default("asc"), STR),
    }),
    limit: step("limit", {
      source: ZRef,
      n: p(z.number().int().min(0), INT),
      offset: p(z.number().int().min(0).optional(), INT),
    }),
    rank: step("rank", { source: ZRef, field: ZField.default("rank") }),
    to_table: step("to_table", { source: ZRef, columns: z.array(ZFieldSpec).optional() }),
    aggregate: step("aggregate", {
      source: ZRef,
      group_by: z.array(ZField).default([]),
      aggregations: z.array(ZAggregation).min(1),
    }),
    spatial_filter: step("spatial_filter", {
      source: ZRef,
      by: ZRef,
      predicate: p(z.enum(["intersects", "within", "contains", "disjoint"]).default("intersects"), STR),
    }),
    spatial_join: step("spatial_join", {
      points: ZRef,
      polygons: ZRef,
      aggregations: z.array(ZAggregation).min(1),
    }),
    points_from_rows: step("points_from_rows", { source: ZRef, lon: ZField, lat: ZField }),
    nearest: step("nearest", {
      source: ZRef,
      target: ZRef,
      max_km: km,
      fields: z.array(ZFieldSpec).default([]),
      distance_field: ZField.default("distance_km"),
    }),
    within_distance: step("within_distance", {
      source: ZRef,
      target: ZRef,
      max_km: km,
      aggregations: z.array(ZAggregation).min(1),
    }),
    distance_pairs: step("distance_pairs", {
      source: ZRef,
      target: ZRef,
      max_km: km,
      source_fields: z.array(ZFieldSpec).default([]),
      target_fields: z.array(ZFieldSpec).default([]),
      distance_field: ZField.default("distance_km"),
    }),
    buffer: step("buffer", {
      source: ZRef,
      distance_km: p(z.number().min(-20_000).max(20_000), NUM),
      steps: p(z.number().int().min(1).max(64).default(8), INT),
    }),
    centroid: step("centroid", {
      source: ZRef,
      method: p(z.enum(["centroid", "center_of_mass", "point_on_feature"]).default("centroid"), STR),
    }),
    simplify: step("simplify", {
      source: ZRef,
      tolerance: p(z.number().min(0), NUM),
      high_quality: p(z.boolean().default(false), BOOL),
    }),
    dissolve: step("dissolve", { source: ZRef, field: ZField.optional() }),
    area: step("area", {
      source: ZRef,
      field: ZField.default("area"),
      unit: p(z.enum(["m2", "km2", "ha"]).default("km2"), STR),
    }),
    length: step("length", {
      source: ZRef,
      field: ZField.default("length"),
      unit: p(z.enum(["m", "km", "mi"]).default("km"), STR),
    }),
    join: step("join", {
      left: ZRef,
      right: ZRef,
      left_field: ZField,
      right_field: ZField,
      fields: z.array(ZFieldSpec).optional(),
      how: p(z.enum(["left", "inner"]).default("left"), STR),
    }),
    union: step("union", { sources: z.array(ZRef).min(2) }),
    clip: step("clip", { source: ZRef, by: ZRef }),
  };
}

type TSourceSpec = { key: string; accepts: readonly TDataKind[]; many?: boolean };
/** Per step type: which options name sources, what it yields, which options are expressions. */
export interface TStepInfo {
  sources: TSourceSpec[];
  output: "features" | "rows" | "same";
  expressions?: Record<string, TExpressionRole>;
  summary: string;
}

const one = (key: string, accepts: readonly TDataKind[]): TSourceSpec => ({ key, accepts });

/** Sources, output kind and a one-line description of every step type. */
export const STEP_INFO: Record<TStepType, TStepInfo> = {
  filter: {
    sources: [one("source", SOURCE.any)],
    output: "same",
    expressions: { where: "predicate" },
    summary: "Keep the features/rows for which the expression `where` is true",
  },
  select: { sources: [one("source", SOURCE.any)], output: "same", summary: "Keep (and rename) the listed fields, in that order; missing fields become null" },
  compute: {
    sources: [one("source", SOURCE.any)],
    output: "same",
    expressions: { expression: "value" },
    summary: "Set `field` to the value of `expression` on every feature/row",
  },
  sort: { sources: [one("source", SOURCE.any)], output: "same", summary: "Stable sort by `field`, `order` asc|desc; nulls last; numbers before text" },
  limit: { sources: [one("source", SOURCE.any)], output: "same", summary: "Keep `n` items after skipping `offset`" },
  rank: { sources: [one("source", SOURCE.any)], output: "same", summary: "Add a 1-based position `field` in the current order" },
  to_table: {
    sources: [one("source", SOURCE.features)],
    output: "rows",
    summary: "Features to rows without geometry; `columns` fixes and renames the columns",
  },
  aggregate: { sources: [one("source", SOURCE.any)], output: "rows", summary: "Group by `group_by` (none = one row) and compute `aggregations`" },
  spatial_filter: {
    sources: [one("source", SOURCE.features), one("by", SOURCE.features)],
    output: "features",
    summary: "Keep features that intersect / are within / contain / are disjoint from any feature of `by` (an omitted optional `by` keeps all)",
  },
  spatial_join: {
    sources: [one("points", SOURCE.features), one("polygons", SOURCE.features)],
    output: "features",
    summary: "Every polygon with `aggregations` over the points inside it (boundary included)",
  },
  points_from_rows: {
    sources: [one("source", SOURCE.rows)],
    output: "features",
    summary: "A Point per row from `lon`/`lat` columns (null geometry when not valid)",
  },
  nearest: {
    sources: [one("source", SOURCE.features), one("target", SOURCE.features)],
    output: "features",
    summary: "Copy `fields` of the nearest `target` within `max_km` and the distance in km (nulls when none)",
  },
  within_distance: {
    sources: [one("source", SOURCE.features), one("target", SOURCE.features)],
    output: "features",
    summary: "Aggregate the `target` features within `max_km` of each source feature",
  },
  distance_pairs: {
    sources: [one("source", SOURCE.features), one("target", SOURCE.features)],
    output: "rows",
    summary: "One row per (source, target) pair within `max_km`, nearest first",
  },
  buffer: { sources: [one("source", SOURCE.features)], output: "features", summary: "Geodesic buffer of `distance_km` (Turf buffer)" },
  centroid: {
    sources: [one("source", SOURCE.features)],
    output: "features",
    summary: "Replace geometry by a point (Turf centroid / centerOfMass / pointOnFeature)",
  },
  simplify: {
    sources: [one("source", SOURCE.features)],
    output: "features",
    summary: "Douglas-Peucker simplification with `tolerance` in degrees (Turf simplify)",
  },
  dissolve: { sources: [one("source", SOURCE.features)], output: "features", summary: "Union the polygons, per value of `field` if given (Turf union)" },
  area: { sources: [one("source", SOURCE.features)], output: "features", summary: "Add the spherical area of each feature (Turf area) in `unit`" },
  length: {
    sources: [one("source", SOURCE.features)],
    output: "features",
    summary: "Add the geodesic length of lines / perimeter of polygons (Turf length) in `unit`",
  },
  join: {
    sources: [one("left", SOURCE.any), one("right", SOURCE.any)],
    output: "same",
    summary: "Attribute join: copy `fields` of the first `right` item whose `right_field` equals `left_field`",
  },
  union: {
    sources: [{ key: "sources", accepts: SOURCE.any, many: true }],
    output: "same",
    summary: "Concatenate the sources (all of one kind), like SQL UNION ALL",
  },
  clip: {
    sources: [one("source", SOURCE.features), one("by", SOURCE.features)],
    output: "features",
    summary: "Cut polygons to `by` (Turf intersect); points outside are dropped, lines are kept whole when they intersect",
  },
};

const STEPS = makeSteps(true);
const RESOLVED_STEPS = makeSteps(false);

export type TStepType = keyof ReturnType<typeof makeSteps<true>>;
export const STEP_TYPES = Object.keys(STEPS) as TStepType[];

export const ZStep = z.discriminatedUnion("type", [
  STEPS.filter,
  STEPS.select,
  STEPS.compute,
  STEPS.sort,
  STEPS.limit,
  STEPS.rank,
  STEPS.to_table,
  STEPS.aggregate,
  STEPS.spatial_filter,
  STEPS.spatial_join,
  STEPS.points_from_rows,
  STEPS.nearest,
  STEPS.within_distance,
  STEPS.distance_pairs,
  STEPS.buffer,
  STEPS.centroid,
  STEPS.simplify,
  STEPS.dissolve,
  STEPS.area,
  STEPS.length,
  STEPS.join,
  STEPS.union,
  STEPS.clip,
]);
export type TStep = z.infer<typeof ZStep>;

/** A step with every `{"param"}` replaced by its value (what the engine executes). */
export type TResolvedStep = { [K in TStepType]: z.infer<(typeof RESOLVED_STEPS)[K]> }[TStepType];
export type TResolvedStepOf<K extends TStepType> = z.infer<(typeof RESOLVED_STEPS)[K]>;

// ---------------------------------------------------------------------------------------------
// Inputs, parameters, results, the document

export const ZInput = z.strictObject({
  name: ZName,
  kind: z.enum(["layer", "table", "area"]),
  optional: z.boolean().default(false),
  description: z.string().optional(),
});
export type TInput = z.infer<typeof ZInput>;

const paramBase = { name: ZName, required: z.boolean().default(false), description: z.string().optional() };
export const ZParameter = z.discriminatedUnion("type", [
  z.strictObject({ ...paramBase, type: z.literal("string"), default: z.string().optional(), max_length: z.number().int().positive().optional() }),
  z.strictObject({
    ...paramBase,
    type: z.enum(["number", "integer"]),
    default: z.number().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    exclusiveMinimum: z.number().optional(),
    exclusiveMaximum: z.number().optional(),
  }),
  z.strictObject({ ...paramBase, type: z.literal("boolean"), default: z.boolean().optional() }),
  z.strictObject({ ...paramBase, type: z.literal("enum"), values: z.array(z.string()).min(1), default: z.string().optional() }),
]);
export type TParameter = z.infer<typeof ZParameter>;

export const ZResult = z.strictObject({
  key: ZName,
  kind: z.enum(["layer", "table"]),
  from: ZRef,
  description: z.string().optional(),
});
export type TResult = z.infer<typeof ZResult>;

export const ZFlowVersion = z.strictObject({
  description: z.string().optional(),
  inputs: z.array(ZInput),
  parameters: z.array(ZParameter).default([]),
  steps: z.array(ZStep),
  results: z.array(ZResult).min(1),
});
export type TFlowVersion = z.infer<typeof ZFlowVersion>;
/** A flow version document as written (defaults not yet filled in). */
export type TFlowVersionInput = z.input<typeof ZFlowVersion>;

/** JSON Schema (draft 2020-12) of a flow version document. */
export function flowVersionJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ZFlowVersion, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Zod issues → JSON Pointer errors (shared with run-request.ts)

/** RFC 6901 JSON Pointer of a path: `["a", 0, "b/c"]` → `/a/0/b~1c`; `[]` → `""`. */
export function toJsonPointer(path: readonly PropertyKey[]): string {
  return path.map((s) => "/" + String(s).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

export interface TPointerError {
  pointer: string;
  code: string;
  message: string;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let cur: unknown = root;
  for (const k of path) {
    if (cur === null || typeof cur !== "object" || !Object.prototype.hasOwnProperty.call(cur, k as string)) return { found: false, value: undefined };
    cur = (cur as Record<PropertyKey, unknown>)[k as string];
  }
  return { found: true, value: cur };
}

/**
 * Flattens zod issues into one error per faulty field, with an absolute path:
 * - `unrecognized_keys` → one `unknown_field` error per key, pointing at the key;
 * - a missing member → `required`;
 * - `invalid_union` → the issues of the branch the value was evidently meant for;
 * - `custom` issues carry their code in `params.code`;
 * - anything else keeps zod's code (`invalid_type`, `too_small`, `too_big`, `invalid_value`, ...).
 * `root` is the value that was parsed (used to tell missing members from wrong ones); `prefix`
 * is prepended to every path (the location of `root` in a larger document).
 */
export function flattenZodIssues(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  prefix: readonly PropertyKey[] = [],
): { path: PropertyKey[]; code: string; message: string }[] {
  const out: { path: PropertyKey[]; code: string; message: string }[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const k of issue.keys) out.push({ path: [...path, k], code: "unknown_field", message: `Unknown field "${k}"` });
    } else if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const here = valueAt(root, issue.path).value;
      // Prefer a branch whose issues are not about the value's own type.
      const branch =
        issue.errors.find((b) => b.length > 0 && !b.some((i) => i.path.length === 0 && i.code === "invalid_type")) ??
        (here !== null && typeof here === "object" && !Array.isArray(here) ? issue.errors[issue.errors.length - 1] : issue.errors[0]);
      out.push(...flattenZodIssues(branch, here, path));
    } else if ((issue.code === "invalid_type" || issue.code === "invalid_value") && !valueAt(root, issue.path).found) {
      out.push({ path, code: "required", message: "Required" });
    } else if (issue.code === "custom") {
      const code = (issue.params as { code?: string } | undefined)?.code ?? "invalid_value";
      out.push({ path, code, message: issue.message });
    } else {
      out.push({ path, code: issue.code, message: issue.message });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Validation

export type TFlowValidation = { ok: true; flow: TFlowVersion } | { ok: false; errors: TPointerError[] };

/** The JSON Schema-like type of a parameter's value; used by run-request.ts and here for defaults. */
export function parameterValueSchema(p: TParameter): z.ZodType {
  switch (p.type) {
    case "string":
      return p.max_length !== undefined ? z.string().max(p.max_length) : z.string();
    case "boolean":
      return z.boolean();
    case "enum":
      return z.enum(p.values as [string, ...string[]]);
    default: {
      let s = p.type === "integer" ? z.number().int() : z.number();
      if (p.minimum !== undefined) s = s.min(p.minimum);
      if (p.maximum !== undefined) s = s.max(p.maximum);
      if (p.exclusiveMinimum !== undefined) s = s.gt(p.exclusiveMinimum);
      if (p.exclusiveMaximum !== undefined) s = s.lt(p.exclusiveMaximum);
      return s;
    }
  }
}

/** Parameter declarations as expressions need them. */
export function paramDecls(params: readonly TParameter[]): TParamDecl[] {
  return params.map((p) => ({ name: p.name, type: p.type, values: p.type === "enum" ? p.values : undefined, default: p.default }));
}

function unwrapOption(s: z.ZodType): z.ZodType {
  let cur = s;
  for (;;) {
    const def = (cur as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
    if ((def.type === "optional" || def.type === "default" || def.type === "nullable") && def.innerType) cur = def.innerType;
    else return cur;
  }
}

/** Options of a step type that accept `{"param"}`, with the parameter types each accepts. */
export function paramableOptions(type: TStepType): Record<string, TParamAccept[]> {
  const out: Record<string, TParamAccept[]> = {};
  for (const [k, s] of Object.entries(STEPS[type].shape)) {
    const acc = PARAMABLE.get(unwrapOption(s as z.ZodType));
    if (acc) out[k] = acc;
  }
  return out;
}

function isParamRef(v: unknown): v is TParamRef {
  return typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { param?: unknown }).param === "string";
}

/** Names of the sources a step reads, with the option (and index) naming each. */
export function stepSources(step: TStep): { name: string; path: (string | number)[]; spec: TSourceSpec }[] {
  const out: { name: string; path: (string | number)[]; spec: TSourceSpec }[] = [];
  for (const spec of STEP_INFO[step.type].sources) {
    const v = (step as Record<string, unknown>)[spec.key];
    if (spec.many && Array.isArray(v)) v.forEach((n, i) => out.push({ name: n as string, path: [spec.key, i], spec }));
    else if (typeof v === "string") out.push({ name: v, path: [spec.key], spec });
  }
  return out;
}

/**
 * Substitutes parameter values into a step's param-able options and parses the result with
 * the step's own schema (ranges, enums). Throws an Error naming the option on a bad value.
 */
export function resolveStep(step: TStep, params: Record<string, unknown>): TResolvedStep {
  const raw: Record<string, unknown> = { ...step };
  for (const [k, v] of Object.entries(raw)) {
    if (isParamRef(v)) {
      const value = params[v.param];
      if (value === undefined || value === null) delete raw[k];
      else raw[k] = value;
    }
  }
  const r = RESOLVED_STEPS[step.type].safeParse(raw);
  if (!r.success) {
    const msg = flattenZodIssues(r.error.issues, raw)
      .map((e) => `${toJsonPointer(e.path) || "/"}: ${e.message}`)
      .join("; ");
    throw new Error(`Invalid options after substituting parameters: ${msg}`);
  }
  return r.data as TResolvedStep;
}

const ZTop = z.strictObject({
  description: z.string().optional(),
  inputs: z.array(z.unknown()),
  parameters: z.array(z.unknown()).default([]),
  steps: z.array(z.unknown()),
  results: z.array(z.unknown()).min(1),
});

/**
 * Validates a flow version document. Reports every problem, each with an RFC 6901 pointer
 * into the document and a code:
 * - schema faults: `required`, `unknown_field` (`unknown_option` inside a step), `invalid_type`,
 *   `too_small`, `invalid_value`, `invalid_format`, `missing_option`, ...;
 * - `unknown_step_type` (at `/steps/i/type`);
 * - `duplicate_name` (input names + step ids share one namespace), `duplicate_parameter`,
 *   `duplicate_result`;
 * - `unknown_reference` (source/`from` naming no input or step), `unknown_parameter`,
 *   `parameter_type_mismatch` (e.g. a string parameter for a numeric option);
 * - `invalid_expression` (pointer into the expression array), `invalid_default`,
 *   `invalid_range`;
 * - `cycle` (at each step on a cycle of the step graph);
 * - `kind_mismatch` (a table fed from features, features from rows, a layer result from rows, ...);
 * - `unused_input` (an input that no step or result reads).
 * On success returns the parsed document with defaults filled in.
 */
export function validateFlowVersion(doc: unknown): TFlowValidation {
  const errors: TPointerError[] = [];
  const push = (path: readonly PropertyKey[], code: string, message: string) => errors.push({ pointer: toJsonPointer(path), code, message });
  const pushZod = (issues: readonly z.core.$ZodIssue[], root: unknown, prefix: PropertyKey[], inStep = false) => {
    for (const e of flattenZodIssues(issues, root, prefix)) {
      const code = inStep && e.code === "unknown_field" ? "unknown_option" : inStep && e.code === "required" ? "missing_option" : e.code;
      const message =
        code === "unknown_option"
          ? `Unknown option "${String(e.path[e.path.length - 1])}"`
          : code === "missing_option"
            ? `Missing option "${String(e.path[e.path.length - 1])}"`
            : e.message;
      push(e.path, code, message);
    }
  };

  const top = ZTop.safeParse(doc);
  let sections: z.infer<typeof ZTop>;
  if (!top.success) {
    pushZod(top.error.issues, doc, []);
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return { ok: false, errors };
    const d = doc as Record<string, unknown>;
    const arr = (v: unknown) => (Array.isArray(v) ? v : []);
    sections = { inputs: arr(d.inputs), parameters: arr(d.parameters), steps: arr(d.steps), results: arr(d.results) };
  } else sections = top.data;

  // Items, one by one, so that one bad item does not hide the faults of the others.
  const inputs: { item: TInput; i: number }[] = [];
  sections.inputs.forEach((raw, i) => {
    const r = ZInput.safeParse(raw);
    if (r.success) inputs.push({ item: r.data, i });
    else pushZod(r.error.issues, raw, ["inputs", i]);
  });
  const params: { item: TParameter; i: number }[] = [];
  sections.parameters.forEach((raw, i) => {
    const r = ZParameter.safeParse(raw);
    if (r.success) params.push({ item: r.data, i });
    else pushZod(r.error.issues, raw, ["parameters", i]);
  });
  const steps: { item: TStep; i: number }[] = [];
  sections.steps.forEach((raw, i) => {
    const t = (raw as { type?: unknown } | null)?.type;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return push(["steps", i], "invalid_type", "A step must be an object");
    const r = typeof t === "string" && t in STEPS ? STEPS[t as TStepType].safeParse(raw) : undefined;
    if (r?.success) return steps.push({ item: r.data as TStep, i });
    if (typeof t !== "string") push(["steps", i, "type"], t === undefined ? "required" : "invalid_type", "A step needs a type (string)");
    else if (!r) push(["steps", i, "type"], "unknown_step_type", `Unknown step type "${t}"; known: ${STEP_TYPES.join(", ")}`);
    else pushZod(r.error.issues, raw, ["steps", i], true);
    // Keep the id known so that references to this step are not reported as unknown as well.
    const id = (raw as { id?: unknown }).id;
    if (typeof id === "string") steps.push({ item: { id, type: t } as TStep, i: -1 - i });
  });
  const results: { item: TResult; i: number }[] = [];
  sections.results.forEach((raw, i) => {
    const r = ZResult.safeParse(raw);
    if (r.success) results.push({ item: r.data, i });
    else pushZod(r.error.issues, raw, ["results", i]);
  });

  // Parameters: unique names, defaults of the right type and in range, sane ranges.
  const paramByName = new Map<string, TParameter>();
  for (const { item: p, i } of params) {
    if (paramByName.has(p.name)) push(["parameters", i, "name"], "duplicate_parameter", `Parameter "${p.name}" is declared twice`);
    else paramByName.set(p.name, p);
    if (p.default !== undefined) {
      const r = parameterValueSchema(p).safeParse(p.default);
      if (!r.success) push(["parameters", i, "default"], "invalid_default", `Default does not fit the parameter: ${r.error.issues[0]?.message}`);
    }
    if ((p.type === "number" || p.type === "integer") && p.minimum !== undefined && p.maximum !== undefined && p.minimum > p.maximum)
      push(["parameters", i, "maximum"], "invalid_range", "maximum is below minimum");
    if (p.type === "enum" && new Set(p.values).size !== p.values.length) push(["parameters", i, "values"], "invalid_value", "Enum values must be unique");
  }
  const decls = paramDecls([...paramByName.values()]);

  // Names: inputs and steps share one namespace.
  const kindOf = new Map<string, TDataKind>();
  const stepById = new Map<string, { item: TStep; i: number }>();
  const inputIndex = new Map<string, number>();
  for (const { item, i } of inputs) {
    if (kindOf.has(item.name)) push(["inputs", i, "name"], "duplicate_name", `Name "${item.name}" is used twice`);
    else {
      kindOf.set(item.name, item.kind === "layer" ? "features" : item.kind === "table" ? "rows" : "area");
      inputIndex.set(item.name, i);
    }
  }
  for (const s of steps) {
    const at = s.i >= 0 ? s.i : -1 - s.i;
    if (kindOf.has(s.item.id) || stepById.has(s.item.id))
      push(["steps", at, "id"], "duplicate_name", `Name "${s.item.id}" is already used by an input or step`);
    else stepById.set(s.item.id, s);
  }
  const known = (n: string) => inputIndex.has(n) || stepById.has(n);
  const used = new Set<string>();

  // Per valid step: references, parameters, expressions.
  for (const { item: step, i } of steps) {
    if (i < 0) continue;
    for (const src of stepSources(step)) {
      used.add(src.name);
      if (!known(src.name)) push(["steps", i, ...src.path], "unknown_reference", `"${src.name}" is neither an input nor a step`);
    }
    const paramable = paramableOptions(step.type);
    for (const [k, v] of Object.entries(step)) {
      if (!isParamRef(v)) continue;
      const p = paramByName.get(v.param);
      if (!p) push(["steps", i, k, "param"], "unknown_parameter", `Unknown parameter "${v.param}"`);
      else if (!paramable[k]?.includes(p.type))
        push(
          ["steps", i, k, "param"],
          "parameter_type_mismatch",
          `Option "${k}" cannot take the ${p.type} parameter "${p.name}" (accepts ${paramable[k]?.join(", ")})`,
        );
    }
    for (const [k, role] of Object.entries(STEP_INFO[step.type].expressions ?? {})) {
      for (const e of checkExpression((step as Record<string, unknown>)[k], decls, role)) {
        const unknownVar = /Unknown variable/.test(e.message);
        push(["steps", i, k, ...e.path], unknownVar ? "unknown_parameter" : "invalid_expression", e.message);
      }
    }
  }

  // Results.
  const resultKeys = new Set<string>();
  for (const { item: r, i } of results) {
    used.add(r.from);
    if (resultKeys.has(r.key)) push(["results", i, "key"], "duplicate_result", `Result key "${r.key}" is used twice`);
    resultKeys.add(r.key);
    if (!known(r.from)) push(["results", i, "from"], "unknown_reference", `"${r.from}" is neither an input nor a step`);
  }

  // Cycles (iterative DFS over step → step edges) and kinds in topological order.
  const state = new Map<string, 1 | 2>();
  const inCycle = new Set<string>();
  const order: string[] = [];
  const visit = (id: string, stack: string[]) => {
    const st = state.get(id);
    if (st === 2) return;
    if (st === 1) {
      const cyc = stack.slice(stack.indexOf(id));
      for (const c of cyc) {
        if (inCycle.has(c)) continue;
        inCycle.add(c);
        const s = stepById.get(c)!;
        push(["steps", s.i >= 0 ? s.i : -1 - s.i], "cycle", `Step "${c}" is on a cycle: ${[...cyc, id].join(" → ")}`);
      }
      return;
    }
    state.set(id, 1);
    const s = stepById.get(id)!;
    if (s.i >= 0) for (const src of stepSources(s.item)) if (stepById.has(src.name)) visit(src.name, [...stack, id]);
    state.set(id, 2);
    order.push(id);
  };
  for (const id of stepById.keys()) visit(id, []);

  const describeKind = (k: TDataKind) => (k === "rows" ? "a table" : k === "area" ? "an area" : "features");
  for (const id of order) {
    const { item: step, i } = stepById.get(id)!;
    if (i < 0 || inCycle.has(id)) continue;
    const info = STEP_INFO[step.type];
    let ok = true;
    const srcKinds: TDataKind[] = [];
    for (const src of stepSources(step)) {
      const k = kindOf.get(src.name);
      if (k === undefined) {
        ok = false;
        continue;
      }
      srcKinds.push(k);
      if (!src.spec.accepts.includes(k)) {
        ok = false;
        push(
          ["steps", i, ...src.path],
          "kind_mismatch",
          `Option "${src.spec.key}" of a ${step.type} step needs ${src.spec.accepts.includes("rows") ? "a table" : "features"}, but "${src.name}" yields ${describeKind(k)}`,
        );
      }
    }
    if (!ok) continue;
    let out: TDataKind;
    if (info.output === "same") {
      const first = srcKinds[0] === "area" ? "features" : srcKinds[0];
      out = first;
      if (step.type === "union") {
        stepSources(step).forEach((src, j) => {
          const k = srcKinds[j] === "area" ? "features" : srcKinds[j];
          if (k !== first)
            push(["steps", i, ...src.path], "kind_mismatch", `All sources of a union must be of one kind; "${src.name}" yields ${describeKind(k)}`);
        });
      }
    } else out = info.output;
    kindOf.set(id, out);
  }
  for (const { item: r, i } of results) {
    const k = kindOf.get(r.from);
    if (k === undefined) continue;
    if (r.kind === "table" && k !== "rows")
      push(["results", i, "from"], "kind_mismatch", `A table result needs rows, but "${r.from}" yields ${describeKind(k)} (add a to_table or aggregate step)`);
    if (r.kind === "layer" && k === "rows") push(["results", i, "from"], "kind_mismatch", `A layer result needs features, but "${r.from}" yields a table`);
  }
  for (const { item, i } of inputs) {
    if (!used.has(item.name) && inputIndex.get(item.name) === i) push(["inputs", i], "unused_input", `Input "${item.name}" is not used by any step or result`);
  }

  if (errors.length > 0) return { ok: false, errors };
  const full = ZFlowVersion.safeParse(doc);
  if (!full.success) {
    pushZod(full.error.issues, doc, []);
    return { ok: false, errors };
  }
  return { ok: true, flow: full.data };
}

/** Step ids in an order where every step comes after the steps it reads (flow must be valid). */
export function topologicalOrder(flow: TFlowVersion): TStep[] {
  const byId = new Map(flow.steps.map((s) => [s.id, s]));
  const done = new Set<string>();
  const out: TStep[] = [];
  const visit = (s: TStep, depth: number) => {
    if (done.has(s.id)) return;
    if (depth > byId.size) throw new Error(`Cycle at step "${s.id}"`);
    for (const src of stepSources(s)) {
      const dep = byId.get(src.name);
      if (dep) visit(dep, depth + 1);
    }
    done.add(s.id);
    out.push(s);
  };
  for (const s of flow.steps) visit(s, 0);
  return out;
}
