/**
 * Building blocks of step option schemas (zod), shared by every step folder and by the flow
 * document (lib/engine/flow-document.ts): names, references, fields, expressions, field
 * specs, aggregations, and `{"param"}` references to run parameters.
 *
 * Names (input names, step ids, parameter names, result keys) match
 * `^[A-Za-z_][A-Za-z0-9_]*$`: they become API fields and expression variables.
 */
import { z } from "zod";

export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ZName = z.string().max(64).regex(NAME_PATTERN, "Must start with a letter or _ and contain only letters, digits and _");
/** Reference to an input name or a step id. */
export const ZRef = ZName.describe("Name of an input or id of another step");
/** A property / column name; any non-empty text (unicode and spaces allowed). */
export const ZField = z.string().min(1).max(256);
/** `{"param": "<name>"}`: take the option's value from a run parameter. */
export const ZParamRef = z.strictObject({ param: ZName }).describe("Value taken from a run parameter");
export type TParamRef = z.infer<typeof ZParamRef>;

/** True for a `{"param": "<name>"}` value. */
export function isParamRef(v: unknown): v is TParamRef {
  return typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { param?: unknown }).param === "string";
}

/** A MapLibre style expression (JSON array, or a literal). */
export const ZExpression = z
  .union([z.array(z.unknown()).min(1), z.string(), z.number(), z.boolean(), z.null()])
  .describe('MapLibre style expression; ["get", field] reads a property, ["var", param] a parameter');

/** Copy a field, optionally renamed: `"name"` or `{"from": "name", "as": "label"}`. */
export const ZFieldSpec = z.union([ZField, z.strictObject({ from: ZField, as: ZField })]);
export type TFieldSpec = z.infer<typeof ZFieldSpec>;

/** The field a spec reads (`"name"` or `{from}`). */
export function specFrom(s: TFieldSpec): string {
  return typeof s === "string" ? s : s.from;
}
/** The field a spec writes (`"name"` or `{as}`). */
export function specAs(s: TFieldSpec): string {
  return typeof s === "string" ? s : s.as;
}

export const AGG_OPS = ["count", "sum", "min", "max", "mean"] as const;
/**
 * One aggregate. `count` without `field` counts items, with `field` counts non-null values;
 * `sum`/`min`/`max`/`mean` use the values of `field` that read as numbers (`readNumber` in
 * lib/steps/aggregations.ts: finite numbers and numeric text, as `to-number` in filters; other
 * values are skipped). Empty group: count and sum 0,
 * min/max/mean null.
 */
export const ZAggregation = z.strictObject({ op: z.enum(AGG_OPS), field: ZField.optional(), as: ZField }).superRefine((a, ctx) => {
  if (a.op !== "count" && a.field === undefined)
    ctx.addIssue({ code: "custom", path: ["field"], message: `"${a.op}" needs a field`, params: { code: "missing_option" } });
});
export type TAggregation = z.infer<typeof ZAggregation>;

/** A distance on the Earth's surface in km: more than 0, at most half the circumference. */
export const ZMaxKm = z.number().positive().max(20_037);

/** Parameter types an option may take its value from (`{"param"}`). */
export type TParamAccept = "string" | "number" | "integer" | "boolean" | "enum";
/** The usual sets of parameter types for an option of a given JSON type. */
export const ACCEPTS_PARAM = {
  number: ["number", "integer"],
  integer: ["integer"],
  string: ["string", "enum"],
  boolean: ["boolean"],
} as const satisfies Record<string, readonly TParamAccept[]>;
