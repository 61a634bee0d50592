/**
 * MapLibre style expressions as row/feature formulas (filter predicates, computed fields).
 *
 * Expressions are parsed and type-checked by `createExpression` of
 * `@maplibre/maplibre-gl-style-spec` (https://maplibre.org/maplibre-style-spec/expressions/)
 * and evaluated by it; nothing is ever eval'd.
 *
 * Parameters: the flow's parameters are bound as variables — the expression is wrapped in
 * `["let", name1, value1, name2, value2, ..., expr]` — so an expression reads a parameter with
 * `["var", "<parameter name>"]`. Feature properties (or table row fields) are read with
 * `["get", "<field>"]`, `["has", ...]`, `["properties"]`; `["geometry-type"]` and `["id"]` work
 * on features. A parameter with no value (optional, no default) is bound as
 * `[<type assertion>, null]`, so reading it is an evaluation error.
 *
 * Evaluation errors follow MapLibre's own semantics: a predicate that fails to evaluate (e.g.
 * `[">", ["get", "pop"], 5]` on a row whose `pop` is null) counts as false; a value expression
 * that fails yields null.
 */
import { createExpression } from "@maplibre/maplibre-gl-style-spec";

export type TParamType = "string" | "number" | "integer" | "boolean" | "enum";

/** What an expression needs to know about a parameter to type-check. */
export interface TParamDecl {
  name: string;
  type: TParamType;
  values?: string[];
  default?: unknown;
}

/** `predicate`: must yield a boolean (filter); `value`: any JSON value (compute). */
export type TExpressionRole = "predicate" | "value";

/** A fault inside an expression; `path` indexes into the expression array. */
export interface TExpressionIssue {
  path: number[];
  message: string;
}

/** Evaluates a compiled expression on one feature (or on one row: geometryType undefined). */
export type TEvaluator = (properties: Record<string, unknown>, geometryType?: string, id?: unknown) => unknown;

const PREDICATE_SPEC = {
  type: "boolean",
  default: false,
  transition: false,
  "property-type": "data-driven",
  expression: { interpolated: false, parameters: ["zoom", "feature"] },
} as const;

const GLOBALS = { zoom: 0 } as const;

/** A sample value of a parameter's type, for type-checking: its default, else a zero of the type. */
function placeholder(p: TParamDecl): unknown {
  if (p.default !== undefined && p.default !== null) return p.default;
  return { number: 0, integer: 0, boolean: false, enum: p.values?.[0] ?? "", string: "" }[p.type];
}

/** A parameter's value as a `let` binding; no value: a null asserted to the parameter's type (reading it fails). */
function bindValue(type: TParamType, v: unknown): unknown {
  if (v === undefined || v === null) return [type === "integer" || type === "number" ? "number" : type === "boolean" ? "boolean" : "string", null];
  if (typeof v === "object") return ["literal", v];
  return v;
}

function compile(expr: unknown, bindings: [string, unknown][], role: TExpressionRole) {
  const spec = role === "predicate" ? PREDICATE_SPEC : null;
  const wrapped = bindings.length === 0 ? expr : ["let", ...bindings.flat(), expr];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return createExpression(wrapped, "expression", spec as any);
}

/**
 * Parses and type-checks `expr` with the declared parameters bound to sample values of their
 * type. Returns `[]` when the expression is valid.
 */
export function checkExpression(expr: unknown, params: TParamDecl[], role: TExpressionRole): TExpressionIssue[] {
  const bindings: [string, unknown][] = params.map((p) => [p.name, bindValue(p.type, placeholder(p))]);
  const r = compile(expr, bindings, role);
  if (r.result === "success") return [];
  // An error's key is its place, e.g. "[2][1]"; with bindings, its first index is the place in the `let`.
  return r.value.map((e) => ({
    path: [...(e.key ?? "").matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])).slice(bindings.length > 0 ? 1 : 0),
    message: e.message,
  }));
}

/**
 * The property (or row field) names `expr` can read, when they are all written out: each
 * `["get", "<name>"]` and `["has", "<name>"]` with a literal name. Null when it may read any: a
 * name computed at run time, or `["properties"]`. A caller that knows the names may hand the
 * evaluator properties with only those keys (filter over columns, lib/steps/filter/step.ts).
 * `["get"/"has", name, object]` read the object, not the properties; `literal` values are data.
 * Expressions in options objects count; a label list of `match` read as an expression may add a
 * name that is not read (more fields filled than needed, never fewer).
 */
export function fieldsRead(expr: unknown): string[] | null {
  const names = new Set<string>();
  const walk = (e: unknown): boolean => {
    // options objects hold expressions too (number-format's locale, format's font-scale, collator's case-sensitive)
    if (e !== null && typeof e === "object" && !Array.isArray(e)) return Object.values(e).every(walk);
    if (!Array.isArray(e) || e.length === 0) return true;
    const [op, ...args] = e as unknown[];
    if (op === "literal") return true;
    if (op === "properties") return false;
    if ((op === "get" || op === "has") && args.length === 1) {
      if (typeof args[0] !== "string") return false;
      names.add(args[0]);
      return true;
    }
    return e.every(walk);
  };
  return walk(expr) ? [...names] : null;
}

function toJsonValue(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype) {
    return String(v); // Color, Formatted, ResolvedImage, ... → their string form
  }
  return v;
}

/**
 * Compiles `expr` with the run's parameter values bound (see module doc). Throws an Error
 * listing the parse errors when the expression is invalid.
 */
export function compileExpression(expr: unknown, params: TParamDecl[], values: Record<string, unknown>, role: TExpressionRole): TEvaluator {
  const bindings: [string, unknown][] = params.map((p) => [p.name, bindValue(p.type, values[p.name])]);
  const r = compile(expr, bindings, role);
  if (r.result === "error") {
    throw new Error(`Invalid expression: ${r.value.map((e) => `${e.key} ${e.message}`).join("; ")}`);
  }
  const se = r.value;
  const feature = { type: "Unknown" as string, properties: {} as Record<string, unknown>, id: undefined as unknown };
  if (role === "predicate") {
    return (properties, geometryType, id) => {
      feature.type = geometryType ?? "Unknown";
      feature.properties = properties;
      feature.id = id;
      try {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return se.evaluateWithoutErrorHandling(GLOBALS, feature as any) === true;
      } catch {
        return false;
      }
    };
  }
  return (properties, geometryType, id) => {
    feature.type = geometryType ?? "Unknown";
    feature.properties = properties;
    feature.id = id;
    try {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return toJsonValue(se.evaluateWithoutErrorHandling(GLOBALS, feature as any));
    } catch {
      return null;
    }
  };
}
