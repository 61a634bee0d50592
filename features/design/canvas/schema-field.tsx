"use client";
/**
 * One option of a step as a form control, generated from its JSON Schema in the step
 * catalogue: enum → select, number → `NumberField`, boolean → checkbox, string → text
 * (offering the source's columns where the option names one), lists of objects → rows to add
 * and remove, expressions and anything else → JSON (`JsonField`). An option that may take
 * a run parameter (`{"param"}`) offers the fitting parameters instead of a value. An option's
 * JSON Schema is the catalogue's (`z.toJSONSchema` of its zod schema).
 */
import { useEffect, useId, useState } from "react";
import { PlusIcon, Trash2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { Input } from "@/components/ui/input";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { Label } from "@/components/ui/label";
import { FormField } from "@/components/ui/form-field";
import type { TItem } from "@/features/design/canvas/flow-graph-model";
import { NOT_JSON, parseJson } from "@/features/design/flow-document-text";
import { checkbox, ColumnList, Problems } from "@/features/design/canvas/form-fields";

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

interface TSchemaFieldProps {
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
const isParamBranch = (s: TSchema) => Boolean(s.properties?.param) && Object.keys(s.properties ?? {}).length === 1;
const isParamRef = (v: unknown): v is { param: string } => Boolean(v) && typeof v === "object" && !Array.isArray(v) && typeof (v as TItem).param === "string";
const typeOf = (s: TSchema) => (Array.isArray(s.type) ? s.type[0] : s.type);

/** The label of an option: its name, and whether it may be left out. */
const optionLabel = (props: Pick<TSchemaFieldProps, "label" | "required">) => `${props.label}${props.required ? "" : " (optional)"}`;

/** The hint of a schema: its description, range (`≥ 0, < 100`) and default. */
function schemaHint(s: TSchema): string {
  const range: string[] = [];
  if (s.minimum !== undefined) range.push(`≥ ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) range.push(`> ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined && s.maximum < 1e15) range.push(`≤ ${s.maximum}`);
  if (s.exclusiveMaximum !== undefined) range.push(`< ${s.exclusiveMaximum}`);
  return [s.description, range.join(", "), s.default !== undefined ? `default ${JSON.stringify(s.default)}` : ""].filter(Boolean).join("; ");
}

/** One option as a form control (see module doc). */
export function SchemaField(props: TSchemaFieldProps) {
  const { schema, value, onChange, ctx } = props;
  const paramBranch = schema.anyOf?.find(isParamBranch);
  if (paramBranch && schema.anyOf) {
    const plain = schema.anyOf.find((s) => !isParamBranch(s)) ?? {};
    return <ParamableField {...props} plain={{ ...plain, description: schema.description ?? plain.description }} />;
  }
  if (props.expression) return <JsonField {...props} />;
  const t = typeOf(schema);
  const isEnum = Array.isArray(schema.enum);
  if (!isEnum && (t === "number" || t === "integer")) return <NumberField {...props} />;
  if (!isEnum && t !== "boolean" && t !== "string") return t === "array" && schema.items ? <ListField {...props} /> : <JsonField {...props} />;
  const field = { id: props.id, label: optionLabel(props), hint: schemaHint(schema), error: ctx.problemsAt(props.pointer).join(" ") };
  if (isEnum) {
    return (
      <FormField {...field}>
        <NativeSelect value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}>
          {!props.required || value === undefined ? (
            <option value="">{schema.default !== undefined ? `Default (${String(schema.default)})` : "Choose…"}</option>
          ) : null}
          <SelectOptions options={schema.enum!.map((v) => ({ value: String(v), label: String(v) }))} />
        </NativeSelect>
      </FormField>
    );
  }
  if (t === "boolean") return <FormField {...field}>{checkbox(value === true, onChange)}</FormField>;
  const cols = ctx.columnsAt(props.path);
  const listId = `${props.id}-columns`;
  return (
    <>
      <FormField {...field}>
        <Input
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value === "" && !props.required ? undefined : e.target.value)}
          list={cols?.length ? listId : undefined}
          placeholder={cols?.length ? `A column: ${cols.slice(0, 3).join(", ")}${cols.length > 3 ? " …" : ""}` : undefined}
          autoComplete="off"
        />
      </FormField>
      <ColumnList id={listId} columns={cols} />
    </>
  );
}

/** An option that takes a fixed value or a run parameter of a fitting type. */
function ParamableField(props: TSchemaFieldProps & { plain: TSchema }) {
  const { value, onChange, ctx } = props;
  const accepts = props.paramAccepts ?? [];
  const fitting = ctx.parameters.filter((p) => accepts.includes(p.type));
  const isParam = isParamRef(value);
  return (
    <fieldset className="grid gap-1 rounded-md border p-2">
      <legend className="px-1 text-sm font-medium">{optionLabel(props)}</legend>
      <FormField
        id={`${props.id}-mode`}
        label={`Value of ${props.label}`}
        hint={
          fitting.length > 0
            ? `The caller may set it through a parameter (${accepts.join(" or ")}).`
            : `A ${accepts.join(" or ")} parameter could set it: add one from the palette.`
        }
        error={isParam ? ctx.problemsAt(`${props.pointer}/param`).join(" ") : null}
      >
        <NativeSelect
          value={isParam ? `param:${value.param}` : "fixed"}
          onChange={(e) => onChange(e.target.value === "fixed" ? undefined : { param: e.target.value.slice("param:".length) })}
        >
          <option value="fixed">A fixed value</option>
          <SelectOptions options={fitting.map((p) => ({ value: `param:${p.name}`, label: `Parameter ${p.name} (${p.type})` }))} />
          {isParam && !fitting.some((p) => p.name === value.param) ? (
            <option value={`param:${value.param}`}>Parameter {value.param} (does not fit)</option>
          ) : null}
        </NativeSelect>
      </FormField>
      {isParam ? null : <SchemaField {...props} schema={props.plain} paramAccepts={undefined} />}
    </fieldset>
  );
}

/** A field spec (`"name"` or `{from, as}`), an aggregation, or a plain string per row. */
function ListField(props: TSchemaFieldProps) {
  const { schema, value, onChange, ctx } = props;
  const items = Array.isArray(value) ? value : [];
  const itemSchema = schema.items!;
  const isSpec = Boolean(itemSchema.anyOf?.some((s) => s.properties?.from && s.properties?.as));
  const objectSchema = !isSpec && typeOf(itemSchema) === "object" ? itemSchema : null;
  const set = (list: unknown[]) => onChange(list.length === 0 && !props.required ? undefined : list);
  const cols = ctx.columnsAt(isSpec || typeOf(itemSchema) === "string" ? props.path : `${props.path}.field`);
  const listId = `${props.id}-columns`;
  const baseId = useId();
  const newItem = (): unknown => {
    if (!objectSchema) return "";
    const out: TItem = {};
    for (const [k, s] of Object.entries(objectSchema.properties ?? {})) if (objectSchema.required?.includes(k) && Array.isArray(s.enum)) out[k] = s.enum[0];
    return out;
  };
  return (
    <fieldset className="grid gap-2 rounded-md border p-2">
      <legend className="px-1 text-sm font-medium">{optionLabel(props)}</legend>
      <ColumnList id={listId} columns={cols} />
      {items.length === 0 ? <p className="text-xs text-muted-foreground">None yet.</p> : null}
      {items.map((item, i) => {
        const rowId = `${props.id}-${i}`;
        const remove = (
          <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${props.label} ${i + 1}`} onClick={() => set(items.filter((_, j) => j !== i))}>
            <Trash2Icon aria-hidden="true" />
          </Button>
        );
        const update = (v: unknown) => set(items.map((x, j) => (j === i ? v : x)));
        if (objectSchema) {
          return (
            <div key={i} className="grid gap-2 rounded border border-dashed p-2" role="group" aria-label={`${props.label} ${i + 1}`}>
              {Object.entries(objectSchema.properties ?? {}).map(([k, s]) => (
                <SchemaField
                  key={k}
                  id={`${rowId}-${k}`}
                  label={k}
                  schema={s}
                  value={(item as TItem)?.[k]}
                  onChange={(v) => {
                    const next: TItem = { ...(item as TItem) };
                    if (v === undefined) delete next[k];
                    else next[k] = v;
                    update(next);
                  }}
                  required={objectSchema.required?.includes(k) ?? false}
                  path={`${props.path}.${k}`}
                  pointer={`${props.pointer}/${i}/${k}`}
                  ctx={ctx}
                />
              ))}
              <div className="justify-self-end">{remove}</div>
            </div>
          );
        }
        const from = typeof item === "string" ? item : String((item as TItem)?.from ?? "");
        const as = typeof item === "string" ? "" : String((item as TItem)?.as ?? "");
        const itemProblems = ctx.problemsAt(`${props.pointer}/${i}`);
        return (
          <div key={i} className="grid gap-1">
            <div className="flex items-end gap-2">
              <div className="grid min-w-0 flex-1 gap-1">
                <Label htmlFor={`${baseId}-${i}-from`} className="text-xs">
                  Column {i + 1}
                </Label>
                <Input
                  id={`${baseId}-${i}-from`}
                  value={from}
                  list={cols?.length ? listId : undefined}
                  autoComplete="off"
                  onChange={(e) => update(as ? { from: e.target.value, as } : e.target.value)}
                  aria-invalid={itemProblems.length > 0 || undefined}
                />
              </div>
              {isSpec ? (
                <div className="grid min-w-0 flex-1 gap-1">
                  <Label htmlFor={`${baseId}-${i}-as`} className="text-xs">
                    Renamed to (optional)
                  </Label>
                  <Input
                    id={`${baseId}-${i}-as`}
                    value={as}
                    autoComplete="off"
                    onChange={(e) => update(e.target.value ? { from, as: e.target.value } : from)}
                  />
                </div>
              ) : null}
              {remove}
            </div>
            <Problems id={`${rowId}-problems`} list={itemProblems} />
          </div>
        );
      })}
      <Problems id={`${props.id}-problems`} list={ctx.problemsAt(props.pointer, true)} />
      <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => set([...items, newItem()])}>
        <PlusIcon aria-hidden="true" /> Add {objectSchema ? "one" : "a column"} to {props.label}
      </Button>
    </fieldset>
  );
}

/** A number field for a number or integer option. It keeps its own text, so a half-typed number (`1.`, `-`) stays as typed while the document holds the last number it meant. */
function NumberField(props: TSchemaFieldProps) {
  const { value, onChange } = props;
  const [text, setText] = useState(typeof value === "number" ? String(value) : "");
  // Follow changes made elsewhere (undo, the JSON view) unless the text already means that value.
  useEffect(() => {
    if ((text === "" ? undefined : Number(text)) !== value) setText(typeof value === "number" ? String(value) : "");
  }, [value]);
  return (
    <FormField id={props.id} label={optionLabel(props)} hint={schemaHint(props.schema)} error={props.ctx.problemsAt(props.pointer).join(" ")}>
      <Input
        type="number"
        inputMode="decimal"
        step={typeOf(props.schema) === "integer" ? 1 : "any"}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const n = e.target.value === "" ? undefined : Number(e.target.value);
          if (n === undefined || Number.isFinite(n)) onChange(n);
        }}
      />
    </FormField>
  );
}

const EXPRESSION_HELP: Record<"predicate" | "value", string> = {
  predicate: 'A MapLibre expression that is true for the items to keep, e.g. [">=", ["get", "population"], ["var", "min_population"]].',
  value: 'A MapLibre expression giving the value, e.g. ["*", ["get", "population"], 2] or ["concat", ["get", "name"], "!"].',
};

/** A JSON text area for an expression (with help naming the parameters and columns) or an option of any other shape. Text that does not parse yet is kept and marked; the document gets each value that parses. */
function JsonField(props: TSchemaFieldProps) {
  const { value, onChange, ctx, expression } = props;
  const [text, setText] = useState(value === undefined ? "" : JSON.stringify(value));
  const typed = parseJson(text);
  // Follow changes made elsewhere (undo, the JSON view) unless the text already means that value.
  useEffect(() => {
    if (typed === NOT_JSON || JSON.stringify(typed) !== JSON.stringify(value)) setText(value === undefined ? "" : JSON.stringify(value));
  }, [value]);
  const cols = ctx.columnsAt(props.path) ?? [];
  const hint = expression
    ? `${EXPRESSION_HELP[expression]}${ctx.parameters.length ? ` Parameters: ${ctx.parameters.map((p) => p.name).join(", ")}.` : ""}${cols.length ? ` Columns: ${cols.join(", ")}.` : ""}`
    : (props.schema.description ?? "JSON value.");
  return (
    <FormField
      id={props.id}
      label={`${props.label}${expression ? " (expression)" : " (JSON)"}${props.required ? "" : " (optional)"}`}
      hint={hint}
      error={[typed === NOT_JSON ? "Not valid JSON yet." : "", ...ctx.problemsAt(props.pointer)].filter(Boolean).join(" ")}
    >
      <Textarea
        className="min-h-20 font-mono text-xs"
        value={text}
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          const v = parseJson(e.target.value);
          if (v !== NOT_JSON) onChange(v);
        }}
      />
    </FormField>
  );
}
