"use client";
/**
 * The form of a run request derived from a flow's inputs and parameters, shared by Try it
 * and the flow preview: its state (`useRunRequest`) and its fields (`RequestFields`). The
 * request is built from the state with the faults found in the browser (invalid JSON, no
 * polygon) keyed by JSON Pointer, like the server's, so every error is shown next to the field
 * it names.
 */
import { useState, type ReactNode } from "react";
import type { Polygon } from "geojson";
import { Badge } from "@/components/ui/badge";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { MapView } from "@/features/design/map-view";
import { parameterHint } from "@/features/design/parameter-hint";
import type { TColumn, TInput, TParameter } from "@/lib/flows/definition";
import { declaredGeometry, describeGeometry, type TReadableLayer } from "@/lib/flows/input-geometry";

/** What the designer chose for one input. */
type TInputState = { mode: "layer" | "paste" | "draw" | "none"; layerId: string; text: string; polygon: Polygon | null };

/** A parameter's field value: text as typed (numbers too), or a checkbox's state. */
type TParamValue = string | boolean;

/** The first state of an input: its preferred layer when there is one, else paste (an area: draw). */
function initialInputState(input: Pick<TInput, "kind">, layerId: string | null): TInputState {
  const mode = input.kind === "area" ? "draw" : layerId ? "layer" : "paste";
  return { mode, layerId: layerId ?? "", text: "", polygon: null };
}

/** The first values of the parameters: their defaults. */
function initialParamValues(parameters: readonly TParameter[]): Record<string, TParamValue> {
  return Object.fromEntries(parameters.map((x) => [x.name, x.type === "boolean" ? (x.default ?? false) : x.default === undefined ? "" : String(x.default)]));
}

/** The messages of `errors` at `prefix` or below it, as one text (a nested pointer is named). */
function errorsAt(errors: Record<string, string>, prefix: string): string {
  return Object.entries(errors)
    .filter(([k]) => k === prefix || k.startsWith(`${prefix}/`))
    .map(([k, m]) => (k === prefix ? m : `${k.slice(prefix.length + 1)}: ${m}`))
    .join(" ");
}

/** The request's `inputs` and `parameters` from the fields' state, and the faults found in the browser (see module doc). */
function requestValues(
  inputs: readonly TInput[],
  parameters: readonly TParameter[],
  stateOf: (input: TInput) => TInputState,
  paramValues: Record<string, TParamValue>,
): { inputs: Record<string, unknown>; parameters: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const inputValues: Record<string, unknown> = {};
  for (const i of inputs) {
    const s = stateOf(i);
    if (s.mode === "none") continue;
    if (s.mode === "layer") inputValues[i.name] = { layer_id: s.layerId };
    else if (s.mode === "draw") {
      if (s.polygon) inputValues[i.name] = { area: s.polygon };
      else errors[`/inputs/${i.name}`] = "Draw a polygon on the map (at least three corners, then Close polygon), or paste one.";
    } else {
      try {
        const v = JSON.parse(s.text);
        if (i.kind === "area") {
          const g = v?.type === "Feature" ? v.geometry : v?.type === "FeatureCollection" ? v.features?.[0]?.geometry : v;
          inputValues[i.name] = { area: g };
        } else if (i.kind === "table") inputValues[i.name] = { rows: v };
        else inputValues[i.name] = { geojson: v };
      } catch (e) {
        errors[`/inputs/${i.name}`] = `Not valid JSON: ${(e as Error).message}`;
      }
    }
  }
  const parameterValues: Record<string, unknown> = {};
  for (const x of parameters) {
    const v = paramValues[x.name];
    if (x.type === "boolean") parameterValues[x.name] = Boolean(v);
    else if (v === "" || v === undefined) continue;
    else if (x.type === "number" || x.type === "integer") parameterValues[x.name] = Number(v);
    else parameterValues[x.name] = v;
  }
  return { inputs: inputValues, parameters: parameterValues, errors };
}

/** The state of a run request form: what the designer set, else each input's first state (its `preferred` layer) and each parameter's default. */
export function useRunRequest(inputs: readonly TInput[], parameters: readonly TParameter[], preferred: (input: TInput) => string | null) {
  const [inputState, setInputState] = useState<Record<string, TInputState>>({});
  const [paramValues, setParamValues] = useState<Record<string, TParamValue>>({});
  const stateOf = (i: TInput): TInputState => inputState[i.name] ?? initialInputState(i, preferred(i));
  const values = { ...initialParamValues(parameters), ...paramValues };
  return {
    stateOf,
    values,
    setInput: (i: TInput, patch: Partial<TInputState>) => setInputState((all) => ({ ...all, [i.name]: { ...stateOf(i), ...patch } })),
    setParam: (name: string, value: TParamValue) => setParamValues((all) => ({ ...all, [name]: value })),
    request: () => requestValues(inputs, parameters, stateOf, values),
  };
}

/**
 * The "Inputs" fieldset (`note` above the fields; `noInputs` instead of it for a flow without
 * inputs) and the "Parameters" fieldset (none without parameters), a field per parameter by its
 * type; `errors` by JSON Pointer (`/inputs/<name>`, `/parameters/<name>`).
 */
export function RequestFields<L extends TReadableLayer>(p: {
  form: ReturnType<typeof useRunRequest>;
  inputs: readonly TInput[];
  parameters: readonly TParameter[];
  /** The workspace layers that fit an input, best first. */
  layers: (input: TInput) => readonly L[];
  /** How a layer is named in the list (default: "name (id)"). */
  layerLabel?: (layer: L) => string;
  errors: Record<string, string>;
  /** Prefix of the fields' ids (two forms on one page must not share ids). */
  idPrefix?: string;
  note?: ReactNode;
  noInputs?: string;
}) {
  return (
    <>
      {p.inputs.length === 0 && p.noInputs ? (
        <p className="text-sm text-muted-foreground">{p.noInputs}</p>
      ) : (
        <fieldset className="grid min-w-0 gap-4">
          <legend className="mb-2 font-semibold">Inputs</legend>
          {p.note}
          {p.inputs.map((i) => (
            <InputField
              key={i.name}
              idPrefix={p.idPrefix}
              input={i}
              state={p.form.stateOf(i)}
              layers={p.layers(i)}
              layerLabel={p.layerLabel}
              error={errorsAt(p.errors, `/inputs/${i.name}`)}
              onChange={(patch) => p.form.setInput(i, patch)}
            />
          ))}
        </fieldset>
      )}
      {p.parameters.length > 0 ? (
        <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2">
          <legend className="mb-2 font-semibold">Parameters</legend>
          {p.parameters.map((x) => {
            const hint = parameterHint(x);
            const value = p.form.values[x.name];
            return (
              <FormField
                key={x.name}
                id={`${p.idPrefix ?? ""}param-${x.name}`}
                label={x.name}
                hint={`${x.description ? `${x.description}. ` : ""}${hint}`}
                error={errorsAt(p.errors, `/parameters/${x.name}`)}
                className="min-w-0"
              >
                {x.type === "boolean" ? (
                  <input type="checkbox" className="size-4" checked={Boolean(value)} onChange={(e) => p.form.setParam(x.name, e.target.checked)} />
                ) : x.type === "enum" ? (
                  <NativeSelect value={String(value ?? "")} onChange={(e) => p.form.setParam(x.name, e.target.value)}>
                    {x.default === undefined ? <option value="">(none)</option> : null}
                    <SelectOptions options={x.values.map((v) => ({ value: v, label: v }))} />
                  </NativeSelect>
                ) : (
                  <Input
                    type={x.type === "string" ? "text" : "number"}
                    step={x.type === "integer" ? 1 : "any"}
                    min={"minimum" in x ? x.minimum : undefined}
                    max={"maximum" in x ? x.maximum : undefined}
                    value={String(value ?? "")}
                    onChange={(e) => p.form.setParam(x.name, e.target.value)}
                  />
                )}
              </FormField>
            );
          })}
        </fieldset>
      ) : null}
    </>
  );
}

/** One input's fields: its source (layer, paste, draw, left out) and the chosen layer or data. */
function InputField<L extends TReadableLayer>(p: {
  input: TInput;
  state: TInputState;
  onChange: (patch: Partial<TInputState>) => void;
  layers: readonly L[];
  layerLabel?: (layer: L) => string;
  error?: string;
  idPrefix?: string;
}) {
  const i = p.input;
  const s = p.state;
  const id = `${p.idPrefix ?? ""}input-${i.name}`;
  const err = p.error;
  const modes: { value: TInputState["mode"]; label: string }[] =
    i.kind === "area"
      ? [
          { value: "draw", label: "Draw on the map" },
          { value: "paste", label: "Paste a GeoJSON polygon" },
        ]
      : [
          { value: "layer", label: `A workspace ${i.kind === "table" ? "table" : "layer"}` },
          { value: "paste", label: i.kind === "table" ? "Paste rows (JSON array)" : "Paste GeoJSON" },
        ];
  if (i.optional) modes.push({ value: "none", label: "Leave out" });
  return (
    <div className="grid min-w-0 gap-2 rounded-md border p-3" data-testid={`input-${i.name}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium break-all">{i.name}</span>
        <Badge variant="outline">{i.kind}</Badge>
        {i.optional ? <Badge variant="secondary">optional</Badge> : null}
        {i.description ? <span className="text-sm text-muted-foreground">{i.description}</span> : null}
      </div>
      <DeclaredColumns columns={i.columns} kind={i.kind} />
      <div className="grid gap-2 sm:grid-cols-2">
        <FormField id={`${id}-mode`} label={`Source of ${i.name}`} className="min-w-0">
          <NativeSelect value={s.mode} onChange={(e) => p.onChange({ mode: e.target.value as TInputState["mode"] })}>
            <SelectOptions options={modes} />
          </NativeSelect>
        </FormField>
        {s.mode === "layer" ? (
          <FormField id={`${id}-layer`} label={`Layer for ${i.name}`} error={err} className="min-w-0">
            <NativeSelect value={s.layerId} onChange={(e) => p.onChange({ layerId: e.target.value })}>
              {p.layers.length === 0 ? (
                <option value="">No {i.kind === "table" ? "table" : `layer of ${describeGeometry(declaredGeometry(i))}`} in this workspace</option>
              ) : null}
              <SelectOptions options={p.layers.map((l) => ({ value: l.id, label: p.layerLabel ? p.layerLabel(l) : `${l.name} (${l.id})` }))} />
            </NativeSelect>
          </FormField>
        ) : null}
      </div>
      {s.mode === "paste" ? (
        <FormField
          id={`${id}-text`}
          label={`${i.kind === "area" ? "Polygon (GeoJSON geometry or feature)" : i.kind === "table" ? "Rows (JSON array of objects)" : "GeoJSON FeatureCollection"} for ${i.name}`}
          error={err}
        >
          <Textarea className="max-h-64 min-h-28 font-mono text-xs" value={s.text} onChange={(e) => p.onChange({ text: e.target.value })} />
        </FormField>
      ) : null}
      {s.mode === "draw" ? <MapView label={`Map to draw the ${i.name} polygon`} onDraw={(polygon) => p.onChange({ polygon })} /> : null}
      {/* The fields above show their own error. */}
      {err && (s.mode === "draw" || s.mode === "none") ? <p className="text-sm text-destructive">{err}</p> : null}
    </div>
  );
}

/** The columns (or properties) an input declares, shown under it (Try it, the flow preview) so pasted rows or GeoJSON can follow them; nothing without declarations. */
function DeclaredColumns({ columns, kind }: { columns?: readonly TColumn[]; kind: string }) {
  if (!columns?.length) return null;
  return (
    <div className="text-sm text-muted-foreground" data-testid="declared-columns">
      <span>{kind === "layer" ? "Each pasted feature's properties need: " : "Each row needs: "}</span>
      {columns.map((c, k) => (
        <span key={c.name}>
          {k > 0 ? ", " : null}
          <code className="text-foreground">{c.name}</code> ({c.type === "any" ? "text, number or boolean" : c.type}
          {c.required ? ", required" : ", optional"}
          {c.minimum !== undefined ? `, ≥ ${c.minimum}` : ""}
          {c.maximum !== undefined ? `, ≤ ${c.maximum}` : ""})
        </span>
      ))}
    </div>
  );
}
