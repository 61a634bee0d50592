/**
 * The flow version document as the engine runs it: schema (`ZFlowVersion`, from the step
 * registry's `ZStep` and the inputs, parameters and results below), its JSON Schema, the
 * parameters' value schemas, and the order in which steps run. Validation of a whole
 * document (references, kinds, cycles, expressions) is lib/flows/validate-flow-version.ts.
 *
 * Input names and step ids share one namespace: a step names its sources by input name or
 * step id. A param-able step option (`params` of its definition, lib/steps/<type>/definition.ts)
 * may be written `{"param": "<parameter name>"}`; expressions read a parameter with
 * `["var", "<parameter name>"]` (lib/expressions/expression.ts).
 */
import { z } from "zod";
import type { TParamDecl } from "@/lib/expressions/expression";
import { ZName, ZRef } from "@/lib/steps/options";
import { stepSources, ZStep, type TStep } from "@/lib/steps/step-schema";

/**
 * A declared column of a table input (or property of a layer input's features): caller rows
 * (features) are checked against it (type, presence, inclusive range for numbers) and a value
 * of a declared `number`/`integer` column is a JSON number, never numeric text (422 otherwise;
 * see docs/flow-format.md "Declared columns"). Results derive their columns from them.
 */
export const ZColumn = z.strictObject({
  name: z.string().min(1).max(200),
  /** `any`: any JSON scalar (Parquet results write it as text). */
  type: z.enum(["number", "integer", "string", "boolean", "any"]),
  required: z.boolean().default(false),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  description: z.string().optional(),
});
export type TColumn = z.infer<typeof ZColumn>;

export const ZInput = z.strictObject({
  name: ZName,
  kind: z.enum(["layer", "table", "area"]),
  optional: z.boolean().default(false),
  description: z.string().optional(),
  /** Table and layer inputs: the columns rows (feature properties) must have; undeclared extra ones are allowed. */
  columns: z.array(ZColumn).optional(),
  /**
   * Layer inputs: the geometry their features must have (lib/flows/input-geometry.ts):
   * `point` (Point, MultiPoint), `line` (LineString, MultiLineString), `polygon` (Polygon,
   * MultiPolygon) or `any` (the default). Caller GeoJSON and layers are checked (422).
   */
  geometry: z.enum(["point", "line", "polygon", "any"]).optional(),
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

/** The JSON Schema-like type of a parameter's value; used by run-request.ts and here for defaults. */
export function parameterValueSchema(p: TParameter): z.ZodType {
  switch (p.type) {
    case "string":
      return p.max_length !== undefined ? z.string().max(p.max_length) : z.string();
    case "boolean":
      return z.boolean();
    case "enum":
      return z.enum(p.values as [string, ...string[]]);
    default:
      return numberSchema(p);
  }
}

/** A number (`integer`: an integer) within the bounds given: inclusive `minimum`, `maximum`, exclusive ones. */
function numberSchema(d: { type: string; minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number }): z.ZodNumber {
  let s = d.type === "integer" ? z.number().int() : z.number();
  if (d.minimum !== undefined) s = s.min(d.minimum);
  if (d.maximum !== undefined) s = s.max(d.maximum);
  if (d.exclusiveMinimum !== undefined) s = s.gt(d.exclusiveMinimum);
  if (d.exclusiveMaximum !== undefined) s = s.lt(d.exclusiveMaximum);
  return s;
}

/** Zod schema of one cell of a declared column (null only when the column is not required). */
export function columnValueSchema(c: TColumn): z.ZodType {
  let s: z.ZodType;
  if (c.type === "number" || c.type === "integer") s = numberSchema(c);
  else if (c.type === "any") {
    // Not a zod union: a missing cell must be reported as `required`, not as "no union member matched".
    s = z
      .unknown()
      .superRefine((v, ctx) => {
        if (v === undefined) ctx.addIssue({ code: "custom", message: "Required", params: { code: "required" } });
        // null reaches here only for a required column (an optional one is `.nullable()` below)
        else if (v === null || !["string", "number", "boolean"].includes(typeof v))
          ctx.addIssue({ code: "custom", message: "Expected a string, number or boolean", params: { code: "invalid_type" } });
      })
      .meta({ type: ["string", "number", "boolean"] });
  } else s = c.type === "string" ? z.string() : z.boolean();
  if (c.description) s = s.describe(c.description);
  return c.required ? s : s.nullable().optional();
}

/** Parameter declarations as expressions need them. */
export function paramDecls(params: readonly TParameter[]): TParamDecl[] {
  return params.map((p) => ({ name: p.name, type: p.type, values: p.type === "enum" ? p.values : undefined, default: p.default }));
}

/**
 * `steps` in an order where every step comes after the steps it reads (depth-first, in document
 * order). A cycle of the step graph is handed to `onCycle` as the ids along it, the first one
 * repeated at the end (default: thrown as an Error); its steps are still listed.
 */
export function topologicalOrder<S extends TStep>(
  steps: readonly S[],
  onCycle = (ids: string[]): void => {
    throw new Error(`Cycle at step "${ids[0]}"`);
  },
): S[] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const done = new Set<string>();
  const out: S[] = [];
  const visit = (s: S, stack: string[]) => {
    if (done.has(s.id)) return;
    if (stack.includes(s.id)) return onCycle([...stack.slice(stack.indexOf(s.id)), s.id]);
    for (const src of stepSources(s)) {
      const dep = byId.get(src.name);
      if (dep) visit(dep, [...stack, s.id]);
    }
    done.add(s.id);
    out.push(s);
  };
  for (const s of steps) visit(s, []);
  return out;
}
