"use client";
/**
 * One option of a step as a form control, generated from the option's JSON Schema in the step
 * catalogue (`z.toJSONSchema` of its zod schema): an enum is a select, a number or integer a
 * number field, a boolean a checkbox, a string a text field (offering the source's columns
 * when the catalogue says the option names a column), a list of field specs or of objects
 * (aggregations) rows to add and remove, an expression a JSON text area with help, checked
 * live by the server's validator. An option that may take a run parameter (`{"param"}`)
 * offers the fitting parameters instead of a value. Anything else: its JSON.
 */
import { useEffect, useId, useState } from "react";
import { PlusIcon, Trash2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import { Label } from "@/components/ui/label";
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

const PARAM_BRANCH = (s: TSchema) => Boolean(s.properties?.param) && Object.keys(s.properties ?? {}).length === 1;
const isParamRef = (v: unknown): v is { param: string } => Boolean(v) && typeof v === "object" && !Array.isArray(v) && typeof (v as TItem).param === "string";
const typeOf = (s: TSchema) => (Array.isArray(s.type) ? s.type[0] : s.type);

function range(s: TSchema): string {
  const parts: string[] = [];
  if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) parts.push(`> ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined && s.maximum < 1e15) parts.push(`≤ ${s.maximum}`);
  if (s.exclusiveMaximum !== undefined) parts.push(`< ${s.exclusiveMaximum}`);
  return parts.join(", ");
}

function Problems({ id, list }: { id: string; list: string[] }) {
  if (list.length === 0) return null;
  return (
    <p id={id} className="text-xs text-destructive dark:text-red-300">
      {list.join(" ")}
    </p>
  );
}

/** One option as a form control (see module doc). */
export function SchemaField(props: TSchemaFieldProps) {
  const { schema, value, onChange, ctx } = props;
  const paramBranch = schema.anyOf?.find(PARAM_BRANCH);
  if (paramBranch && schema.anyOf) {
    const plain = schema.anyOf.find((s) => !PARAM_BRANCH(s)) ?? {};
    return <ParamableField {...props} plain={{ ...plain, description: schema.description ?? plain.description }} />;
  }
  if (props.expression) return <JsonField {...props} expression={props.expression} />;
  const problems = ctx.problemsAt(props.pointer);
  const errId = `${props.id}-problems`;
  const t = typeOf(schema);
  const hint = [schema.description, range(schema), schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : ""].filter(Boolean).join("; ");
  const hintId = `${props.id}-hint`;
  const describedBy = [hint ? hintId : "", problems.length ? errId : ""].filter(Boolean).join(" ") || undefined;
  const invalid = problems.length > 0 || undefined;
  const labelEl = (
    <Label htmlFor={props.id}>
      {props.label}
      {props.required ? "" : " (optional)"}
    </Label>
  );
  const hintEl = hint ? (
    <p id={hintId} className="text-xs text-muted-foreground">
      {hint}
    </p>
  ) : null;

  if (Array.isArray(schema.enum)) {
    return (
      <div className="grid gap-1">
        {labelEl}
        <NativeSelect
          id={props.id}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        >
          {!props.required || value === undefined ? (
            <option value="">{schema.default !== undefined ? `Default (${String(schema.default)})` : "Choose…"}</option>
          ) : null}
          {schema.enum.map((v) => (
            <option key={String(v)} value={String(v)}>
              {String(v)}
            </option>
          ))}
        </NativeSelect>
        {hintEl}
        <Problems id={errId} list={problems} />
      </div>
    );
  }
  if (t === "number" || t === "integer") return <NumberField {...props} labelEl={labelEl} hintEl={hintEl} describedBy={describedBy} problems={problems} />;
  if (t === "boolean") {
    return (
      <div className="grid gap-1">
        <div className="flex items-center gap-2">
          <input
            id={props.id}
            type="checkbox"
            className="size-4 accent-primary"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
            aria-invalid={invalid}
            aria-describedby={describedBy}
          />
          {labelEl}
        </div>
        {hintEl}
        <Problems id={errId} list={problems} />
      </div>
    );
  }
  if (t === "string") {
    const cols = ctx.columnsAt(props.path);
    const listId = `${props.id}-columns`;
    return (
      <div className="grid gap-1">
        {labelEl}
        <Input
          id={props.id}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value === "" && !props.required ? undefined : e.target.value)}
          list={cols?.length ? listId : undefined}
          placeholder={cols?.length ? `A column: ${cols.slice(0, 3).join(", ")}${cols.length > 3 ? " …" : ""}` : undefined}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          autoComplete="off"
        />
        {cols?.length ? (
          <datalist id={listId}>
            {cols.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        ) : null}
        {hintEl}
        <Problems id={errId} list={problems} />
      </div>
    );
  }
  if (t === "array" && schema.items) return <ListField {...props} />;
  return <JsonField {...props} />;
}

function NumberField(props: TSchemaFieldProps & { labelEl: React.ReactNode; hintEl: React.ReactNode; describedBy?: string; problems: string[] }) {
  const { value, onChange } = props;
  const [text, setText] = useState(typeof value === "number" ? String(value) : "");
  // Follow changes made elsewhere (undo, the JSON view) unless the text already means that value.
  useEffect(() => {
    if ((text === "" ? undefined : Number(text)) !== value) setText(typeof value === "number" ? String(value) : "");
  }, [value]);
  const integer = typeOf(props.schema) === "integer";
  return (
    <div className="grid gap-1">
      {props.labelEl}
      <Input
        id={props.id}
        type="number"
        inputMode="decimal"
        step={integer ? 1 : "any"}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const n = e.target.value === "" ? undefined : Number(e.target.value);
          if (n === undefined || Number.isFinite(n)) onChange(n);
        }}
        aria-invalid={props.problems.length > 0 || undefined}
        aria-describedby={props.describedBy}
      />
      {props.hintEl}
      <Problems id={`${props.id}-problems`} list={props.problems} />
    </div>
  );
}

function ParamableField(props: TSchemaFieldProps & { plain: TSchema }) {
  const { value, onChange, ctx } = props;
  const accepts = props.paramAccepts ?? [];
  const fitting = ctx.parameters.filter((p) => accepts.includes(p.type));
  const isParam = isParamRef(value);
  const modeId = `${props.id}-mode`;
  const problems = isParam ? ctx.problemsAt(`${props.pointer}/param`) : [];
  return (
    <fieldset className="grid gap-1 rounded-md border p-2">
      <legend className="px-1 text-sm font-medium">
        {props.label}
        {props.required ? "" : " (optional)"}
      </legend>
      <Label htmlFor={modeId} className="text-xs text-muted-foreground">
        Value of {props.label}
      </Label>
      <NativeSelect
        id={modeId}
        value={isParam ? `param:${value.param}` : "fixed"}
        onChange={(e) => {
          const v = e.target.value;
          if (v === "fixed") onChange(undefined);
          else onChange({ param: v.slice("param:".length) });
        }}
        aria-describedby={`${modeId}-hint`}
        aria-invalid={problems.length > 0 || undefined}
      >
        <option value="fixed">A fixed value</option>
        {fitting.map((p) => (
          <option key={p.name} value={`param:${p.name}`}>
            Parameter {p.name} ({p.type})
          </option>
        ))}
        {isParam && !fitting.some((p) => p.name === value.param) ? (
          <option value={`param:${value.param}`}>Parameter {value.param} (does not fit)</option>
        ) : null}
      </NativeSelect>
      <p id={`${modeId}-hint`} className="text-xs text-muted-foreground">
        {fitting.length > 0
          ? `The caller may set it through a parameter (${accepts.join(" or ")}).`
          : `A ${accepts.join(" or ")} parameter could set it: add one from the palette.`}
      </p>
      <Problems id={`${modeId}-problems`} list={problems} />
      {isParam ? null : <SchemaField {...props} schema={props.plain} paramAccepts={undefined} />}
    </fieldset>
  );
}

const EXPRESSION_HELP: Record<"predicate" | "value", string> = {
  predicate: 'A MapLibre expression that is true for the items to keep, e.g. [">=", ["get", "population"], ["var", "min_population"]].',
  value: 'A MapLibre expression giving the value, e.g. ["*", ["get", "population"], 2] or ["concat", ["get", "name"], "!"].',
};

function JsonField(props: TSchemaFieldProps) {
  const { value, onChange, ctx } = props;
  const [text, setText] = useState(value === undefined ? "" : JSON.stringify(value));
  const [localError, setLocalError] = useState<string | null>(null);
  useEffect(() => {
    let same = false;
    try {
      same = JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
    } catch {
      same = false;
    }
    if (!same && !(text === "" && value === undefined)) {
      setText(value === undefined ? "" : JSON.stringify(value));
      setLocalError(null);
    }
  }, [value]);
  const problems = [...(localError ? [localError] : []), ...ctx.problemsAt(props.pointer)];
  const hintId = `${props.id}-hint`;
  const errId = `${props.id}-problems`;
  const cols = ctx.columnsAt(props.path) ?? [];
  return (
    <div className="grid gap-1">
      <Label htmlFor={props.id}>
        {props.label}
        {props.expression ? " (expression)" : " (JSON)"}
        {props.required ? "" : " (optional)"}
      </Label>
      <Textarea
        id={props.id}
        className="min-h-20 font-mono text-xs"
        value={text}
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === "") {
            setLocalError(null);
            onChange(undefined);
            return;
          }
          try {
            const v = JSON.parse(e.target.value) as unknown;
            setLocalError(null);
            onChange(v);
          } catch {
            setLocalError("Not valid JSON yet.");
          }
        }}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={[hintId, problems.length ? errId : ""].filter(Boolean).join(" ")}
      />
      <p id={hintId} className="text-xs text-muted-foreground">
        {props.expression ? EXPRESSION_HELP[props.expression] : (props.schema.description ?? "JSON value.")}
        {props.expression && ctx.parameters.length ? ` Parameters: ${ctx.parameters.map((p) => p.name).join(", ")}.` : ""}
        {props.expression && cols.length ? ` Columns: ${cols.join(", ")}.` : ""}
      </p>
      <Problems id={errId} list={problems} />
    </div>
  );
}

/** A field spec (`"name"` or `{from, as}`), an aggregation, or a plain string per row. */
function ListField(props: TSchemaFieldProps) {
  const { schema, value, onChange, ctx } = props;
  const items = Array.isArray(value) ? value : [];
  const itemSchema = schema.items!;
  const specObject = itemSchema.anyOf?.find((s) => s.properties?.from && s.properties?.as);
  const isSpec = Boolean(specObject);
  const objectSchema = !isSpec && typeOf(itemSchema) === "object" ? itemSchema : null;
  const listProblems = ctx.problemsAt(props.pointer, true);
  const set = (list: unknown[]) => onChange(list.length === 0 && !props.required ? undefined : list);
  const cols = ctx.columnsAt(isSpec || typeOf(itemSchema) === "string" ? props.path : `${props.path}.field`);
  const listId = `${props.id}-columns`;
  const baseId = useId();
  const newItem = (): unknown => {
    if (objectSchema) {
      const out: TItem = {};
      for (const [k, s] of Object.entries(objectSchema.properties ?? {})) if (objectSchema.required?.includes(k) && Array.isArray(s.enum)) out[k] = s.enum[0];
      return out;
    }
    return "";
  };
  return (
    <fieldset className="grid gap-2 rounded-md border p-2">
      <legend className="px-1 text-sm font-medium">
        {props.label}
        {props.required ? "" : " (optional)"}
      </legend>
      {cols?.length ? (
        <datalist id={listId}>
          {cols.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      ) : null}
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
      <Problems id={`${props.id}-problems`} list={listProblems} />
      <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => set([...items, newItem()])}>
        <PlusIcon aria-hidden="true" /> Add {objectSchema ? "one" : "a column"} to {props.label}
      </Button>
    </fieldset>
  );
}
