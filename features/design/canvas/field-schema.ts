/** What the generated option fields share: a step option's JSON Schema (`z.toJSONSchema` of its zod schema), a field's props and context, and a schema's hint. */
import type { TItem } from "@/features/design/canvas/flow-graph-model";

export type TSchema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: TSchema[];
  items?: TSchema;
  properties?: Record<string, TSchema>;
  required?: string[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};

export interface TFieldContext {
  /** Parameters of the document: name and type. */
  parameters: { name: string; type: string }[];
  /** Column names offered at an option path (`lon`, `aggregations.field`), or null. */
  columnsAt: (path: string) => string[] | null;
  /** Messages of the server's validator about the option at a pointer below the step (`/max_km/param`) and, unless `exact`, inside it. */
  problemsAt: (pointer: string, exact?: boolean) => string[];
}

export interface TSchemaFieldProps {
  id: string;
  label: string;
  schema: TSchema;
  value: unknown;
  onChange: (value: unknown) => void;
  required: boolean;
  /** Option path without array indexes (`aggregations.field`), for the columns offered. */
  path: string;
  /** JSON Pointer of the option below the step (`/aggregations/0/field`), for its problems. */
  pointer: string;
  ctx: TFieldContext;
  /** Parameter types the option accepts as `{"param"}` (from the catalogue). */
  paramAccepts?: readonly string[];
  /** A MapLibre expression: a predicate (`where`) or a value. */
  expression?: "predicate" | "value";
}

/** The branch of an `anyOf` that is a `{"param": name}` reference. */
export const isParamBranch = (s: TSchema) => Boolean(s.properties?.param) && Object.keys(s.properties ?? {}).length === 1;
export const isParamRef = (v: unknown): v is { param: string } =>
  Boolean(v) && typeof v === "object" && !Array.isArray(v) && typeof (v as TItem).param === "string";
export const typeOf = (s: TSchema) => (Array.isArray(s.type) ? s.type[0] : s.type);

/** The label of an option: its name, and whether it may be left out. */
export const optionLabel = (props: Pick<TSchemaFieldProps, "label" | "required">) => `${props.label}${props.required ? "" : " (optional)"}`;

/** The hint of a schema: its description, range (`≥ 0, < 100`) and default. */
export function schemaHint(s: TSchema): string {
  const range: string[] = [];
  if (s.minimum !== undefined) range.push(`≥ ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) range.push(`> ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined && s.maximum < 1e15) range.push(`≤ ${s.maximum}`);
  if (s.exclusiveMaximum !== undefined) range.push(`< ${s.exclusiveMaximum}`);
  return [s.description, range.join(", "), s.default !== undefined ? `default ${JSON.stringify(s.default)}` : ""].filter(Boolean).join("; ");
}
