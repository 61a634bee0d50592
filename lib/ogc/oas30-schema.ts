/**
 * A JSON Schema (2020-12, as zod writes the HTTP door's request schema) as the OpenAPI 3.0
 * schema object OGC 18-062r2 asks for in a process description (`schema.yaml`: the OpenAPI 3.0
 * subset of JSON Schema, no other keys). The same constraints, in that dialect:
 *
 * - `const: v` becomes `enum: [v]`; `examples: [v, ...]` becomes `example: v`;
 * - a `null` type (in `type: [..., "null"]`, or a `{type: "null"}` branch of `anyOf`/`oneOf`)
 *   becomes `nullable: true`;
 * - a numeric `exclusiveMinimum`/`exclusiveMaximum` (2020-12) becomes `minimum`/`maximum` with
 *   the boolean form (draft 04, as OpenAPI 3.0 has it);
 * - keys OpenAPI 3.0 schema objects do not have (`$schema`, `$id`, `x-…` hints of the design
 *   tool and the HTTP door's docs) are left out.
 */
import type { TJsonSchema } from "@/lib/openapi/types";

/** The keys `schema.yaml` of 18-062r2 allows. */
const ALLOWED = new Set([
  "title",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "enum",
  "type",
  "not",
  "allOf",
  "oneOf",
  "anyOf",
  "items",
  "properties",
  "additionalProperties",
  "description",
  "format",
  "default",
  "nullable",
  "readOnly",
  "writeOnly",
  "example",
  "deprecated",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
]);

const isNullType = (s: unknown) => !!s && typeof s === "object" && (s as TJsonSchema).type === "null" && Object.keys(s).length === 1;

/** `schema` in OpenAPI 3.0 form (see module doc). */
export function toOas30Schema(schema: TJsonSchema): TJsonSchema {
  const out: TJsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "const") out.enum = [value];
    else if (key === "examples" && Array.isArray(value)) out.example = value[0];
    else if (key === "type" && Array.isArray(value)) {
      const types = value.filter((t) => t !== "null");
      if (types.length < value.length) out.nullable = true;
      if (types.length === 1) out.type = types[0];
      else if (types.length > 1) out.anyOf = types.map((t) => ({ type: t }));
    } else if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof value === "number") {
      out[key === "exclusiveMinimum" ? "minimum" : "maximum"] = value;
      out[key] = true;
    } else if ((key === "anyOf" || key === "oneOf") && Array.isArray(value)) {
      const branches = value.filter((b) => !isNullType(b)).map((b) => toOas30Schema(b as TJsonSchema));
      if (branches.length < value.length) out.nullable = true;
      if (branches.length === 1) Object.assign(out, branches[0]);
      else out[key] = branches;
    } else if (key === "allOf" && Array.isArray(value)) out.allOf = value.map((b) => toOas30Schema(b as TJsonSchema));
    else if ((key === "not" || key === "contentSchema" || key === "items") && value && typeof value === "object" && !Array.isArray(value)) {
      out[key] = toOas30Schema(value as TJsonSchema);
    } else if (key === "additionalProperties" && value && typeof value === "object") out[key] = toOas30Schema(value as TJsonSchema);
    else if (key === "properties" && value && typeof value === "object") {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, TJsonSchema>).map(([k, v]) => [k, toOas30Schema(v)]));
    } else if (ALLOWED.has(key)) out[key] = value;
  }
  return out;
}
