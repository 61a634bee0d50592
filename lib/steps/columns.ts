/**
 * Columns of a dataset as the flow knows them before it runs (a "result schema"): derived
 * through the step graph from the inputs' declarations, never from a run's data, so that the
 * same API writes the same columns and types on every run (lib/formats uses it for Parquet,
 * GeoParquet and CSV headers; the OpenAPI document and docs page list it).
 *
 * - `fields`: the columns (feature properties or table columns) every result of this dataset
 *   has, in order; `any` = a column whose type the flow cannot know (a layer's property, an
 *   undeclared caller column, an expression's value): writers infer it from the run's data.
 * - `open`: further columns, named only by the data, may follow (a layer input, caller GeoJSON,
 *   undeclared extra columns of caller rows); writers append them after `fields`.
 *
 * Each step type derives its output from its sources' columns with `columns` of its
 * definition (lib/steps/<type>/definition.ts); a step without one keeps its first source's columns.
 * The step as written in the flow document is passed (options may still be `{"param"}`: no
 * derivation depends on a param-able option).
 */
import { specAs, specFrom, type TAggregation, type TFieldSpec } from "@/lib/steps/options";

export type TFieldType = "integer" | "number" | "string" | "boolean" | "any";
export interface TFieldSchema {
  name: string;
  type: TFieldType;
}
export interface TColumns {
  fields: TFieldSchema[];
  open: boolean;
}

/** Nothing known: a layer input's properties, caller GeoJSON. */
export const UNKNOWN_COLUMNS: TColumns = { fields: [], open: true };
/** No columns at all (an area input, `dissolve` without field). */
export const NO_COLUMNS: TColumns = { fields: [], open: false };

/** Type of `name` in `c`: its declared type, `any` when unknown (open or absent). */
export function typeOf(c: TColumns, name: string): TFieldType {
  return c.fields.find((f) => f.name === name)?.type ?? "any";
}

/** `c` with `name` set to `type` (replaced in place, or appended). */
export function withField(c: TColumns, name: string, type: TFieldType): TColumns {
  const i = c.fields.findIndex((f) => f.name === name);
  if (i < 0) return { fields: [...c.fields, { name, type }], open: c.open };
  const fields = c.fields.slice();
  fields[i] = { name, type };
  return { fields, open: c.open };
}

/** The fields picked by field specs from `c` (renamed), as `pick` in lib/steps/items.ts copies them. */
export function pickedFields(c: TColumns, specs: readonly TFieldSpec[]): TFieldSchema[] {
  return specs.map((s) => ({ name: specAs(s), type: typeOf(c, specFrom(s)) }));
}

/** `base` then `extra` (later ones replace earlier ones of the same name, in place). */
export function appendFields(base: TColumns, extra: readonly TFieldSchema[], open = base.open): TColumns {
  let out: TColumns = { fields: base.fields, open };
  for (const f of extra) out = withField(out, f.name, f.type);
  return out;
}

/** Output columns of aggregations over items of `source`: count integer, mean number, sum/min/max integer over an integer field, else number. */
export function aggregationFields(source: TColumns, aggs: readonly TAggregation[]): TFieldSchema[] {
  return aggs.map((a) => {
    if (a.op === "count") return { name: a.as, type: "integer" };
    if (a.op === "mean") return { name: a.as, type: "number" };
    return { name: a.as, type: typeOf(source, a.field!) === "integer" ? "integer" : "number" };
  });
}

/** Columns of a union of datasets: the union of names in order; a name of different types (or unknown in one) is `any`. */
export function unionColumns(list: readonly TColumns[]): TColumns {
  const types = new Map<string, TFieldType>();
  for (const c of list) {
    for (const f of c.fields) {
      const t = types.get(f.name);
      types.set(f.name, t === undefined ? f.type : t === f.type ? t : "any");
    }
  }
  // A name missing from a closed member stays typed (its cells are null there); in an open one it may hold anything.
  for (const [name] of types) if (list.some((c) => c.open && !c.fields.some((f) => f.name === name))) types.set(name, "any");
  return { fields: [...types].map(([name, type]) => ({ name, type })), open: list.some((c) => c.open) };
}
