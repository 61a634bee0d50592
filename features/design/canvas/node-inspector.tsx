"use client";
/**
 * The form of the selected node, beside the canvas. A step: its id (renaming it renames every
 * reference), what each of its source options reads (a select of the nodes that fit: the
 * keyboard's way to connect), and its other options generated from the catalogue's JSON
 * Schema (schema-field.tsx). An input: name, kind, optional, geometry, declared columns. A
 * parameter: name, type, default, range or values. A result: key, kind, the node it comes
 * from. Every change is a new document (one undo step per field while typing). The server's
 * problems about the node are listed on top and next to the fields they concern.
 */
import { PlusIcon, Trash2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Label } from "@/components/ui/label";
import {
  canConnect,
  connect,
  removeFromDocument,
  renameInDocument,
  replaceItem,
  sectionOf,
  type TCanvasNode,
  type TCanvasStepType,
  type TFlowDoc,
  type TItem,
} from "@/features/design/canvas/flow-graph-model";
import { SchemaField, type TFieldContext, type TSchema } from "@/features/design/canvas/schema-field";
import type { TFieldError } from "@/lib/errors/field-error";
import type { TColumns } from "@/lib/steps/columns";

export interface TNodeInspectorProps {
  doc: TFlowDoc;
  node: TCanvasNode;
  nodes: TCanvasNode[];
  catalogue: readonly TCanvasStepType[];
  problems: TFieldError[];
  columns: Record<string, TColumns>;
  onChange: (doc: TFlowDoc, coalesce?: string) => void;
  onDelete: () => void;
}

const COLUMN_TYPES = ["number", "integer", "string", "boolean", "any"] as const;
const PARAM_TYPES = ["number", "integer", "string", "boolean", "enum"] as const;

function TextField(props: { id: string; label: string; value: string; onChange: (v: string) => void; hint?: string; problems?: string[]; mono?: boolean }) {
  const problems = props.problems ?? [];
  return (
    <div className="grid gap-1">
      <Label htmlFor={props.id}>{props.label}</Label>
      <Input
        id={props.id}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        className={props.mono ? "font-mono" : undefined}
        autoComplete="off"
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={[props.hint ? `${props.id}-hint` : "", problems.length ? `${props.id}-problems` : ""].filter(Boolean).join(" ") || undefined}
      />
      {props.hint ? (
        <p id={`${props.id}-hint`} className="text-xs text-muted-foreground">
          {props.hint}
        </p>
      ) : null}
      {problems.length ? (
        <p id={`${props.id}-problems`} className="text-xs text-destructive dark:text-red-300">
          {problems.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

function SelectField(props: {
  id: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (v: string) => void;
  problems?: string[];
}) {
  const problems = props.problems ?? [];
  return (
    <div className="grid gap-1">
      <Label htmlFor={props.id}>{props.label}</Label>
      <NativeSelect
        id={props.id}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={problems.length ? `${props.id}-problems` : undefined}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
      {problems.length ? (
        <p id={`${props.id}-problems`} className="text-xs text-destructive dark:text-red-300">
          {problems.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

function Check(props: { id: string; label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="flex items-center gap-2">
      <input id={props.id} type="checkbox" className="size-4 accent-primary" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      <Label htmlFor={props.id}>{props.label}</Label>
    </div>
  );
}

/** The selected node's form (see module doc). */
export function NodeInspector({ doc, node, nodes, catalogue, problems, columns, onChange, onDelete }: TNodeInspectorProps) {
  const { kind, index, item } = node.data;
  const section = sectionOf(kind);
  const prefix = `/${section}/${index}`;
  const fid = (k: string) => `inspector-${kind}-${k}`.replace(/[^A-Za-z0-9_-]/g, "-");
  const mine = problems.filter((p) => p.field === prefix || p.field.startsWith(`${prefix}/`));
  const problemsAt = (pointer: string, exact = false) =>
    mine.filter((p) => p.field === `${prefix}${pointer}` || (!exact && p.field.startsWith(`${prefix}${pointer}/`))).map((p) => p.message);

  const set = (next: TItem, coalesce?: string) => onChange(replaceItem(doc, section, index, next), coalesce);
  const setKey = (k: string, v: unknown, coalesce?: string) => {
    const next = { ...item };
    if (v === undefined || v === "") delete next[k];
    else next[k] = v;
    set(next, coalesce ?? `${node.id}:${k}`);
  };
  const nameKey = kind === "step" ? "id" : kind === "result" ? "key" : "name";
  const rename = (to: string) => {
    const from = String(item[nameKey] ?? "");
    const replaced = replaceItem(doc, section, index, { ...item, [nameKey]: to });
    // Keep references following while the new name is typed (the old one is gone once renamed).
    onChange(renameInDocument(replaced, catalogue, kind, from, to), `${kind}:${index}:name`);
  };
  const description = (
    <TextField
      id={fid("description")}
      label="Description (optional)"
      value={String(item.description ?? "")}
      onChange={(v) => setKey("description", v)}
      problems={problemsAt("/description")}
    />
  );
  const nameField = (
    <TextField
      id={fid("name")}
      label={kind === "step" ? "Step id" : kind === "result" ? "Result key" : kind === "parameter" ? "Parameter name" : "Input name"}
      value={String(item[nameKey] ?? "")}
      onChange={rename}
      mono
      hint="Letters, digits and _, starting with a letter or _."
      problems={problemsAt(`/${nameKey}`)}
    />
  );

  const sourcesFor = (handle: string) =>
    nodes
      .filter((n) => n.data.output && n.id !== node.id && canConnect(doc, catalogue, nodes, n.id, node.id, handle))
      .map((n) => ({ value: n.id, label: `${n.data.name} (${n.data.title})` }));
  const readsSelect = (key: string, label: string) => {
    const current = item[key];
    const currentNode = typeof current === "string" ? nodes.find((n) => n.data.output && n.data.name === current) : undefined;
    const options = sourcesFor(key);
    if (currentNode && !options.some((o) => o.value === currentNode.id))
      options.unshift({ value: currentNode.id, label: `${currentNode.data.name} (does not fit)` });
    if (typeof current === "string" && current && !currentNode) options.unshift({ value: `?${current}`, label: `${current} (not on the canvas)` });
    return (
      <SelectField
        key={key}
        id={fid(`reads-${key}`)}
        label={label}
        value={currentNode ? currentNode.id : typeof current === "string" && current ? `?${current}` : ""}
        options={[{ value: "", label: "Not connected" }, ...options]}
        onChange={(v) => {
          if (v.startsWith("?")) return;
          if (v === "") {
            const edge = `${currentNode?.id}->${node.id}:${key}`;
            onChange(removeFromDocument(doc, catalogue, [], [edge]));
          } else onChange(connect(doc, catalogue, v, node.id, key));
        }}
        problems={problemsAt(`/${key}`)}
      />
    );
  };

  let body: React.ReactNode = null;
  if (kind === "step") {
    const type = catalogue.find((c) => c.type === item.type);
    const schema = (type?.options ?? {}) as TSchema;
    const inputKeys = new Set(type?.inputs.map((i) => i.key) ?? []);
    const ctx: TFieldContext = {
      parameters: (doc.parameters ?? []).map((p) => ({ name: String(p.name ?? ""), type: String(p.type ?? "") })).filter((p) => p.name),
      columnsAt: (path) => {
        const source = type?.columns[path] ?? type?.columns[path.replace(/\.from$/, "")];
        const name = source ? item[source] : type?.inputs[0] ? item[type.inputs[0].key] : undefined;
        if (typeof name !== "string") return null;
        const c = columns[name];
        return c ? c.fields.map((f) => f.name) : null;
      },
      problemsAt,
    };
    body = (
      <>
        <p className="text-sm text-muted-foreground">{type?.summary.replaceAll("`", "") ?? `Unknown step type "${String(item.type)}".`}</p>
        {nameField}
        {type?.inputs.map((i) =>
          i.many ? (
            <ManySources
              key={i.key}
              doc={doc}
              node={node}
              nodes={nodes}
              catalogue={catalogue}
              handle={i.key}
              options={sourcesFor(i.key)}
              onChange={onChange}
              problems={problemsAt(`/${i.key}`)}
            />
          ) : (
            readsSelect(i.key, `Reads “${i.key}” from`)
          ),
        )}
        {Object.entries(schema.properties ?? {})
          .filter(([k]) => !inputKeys.has(k))
          .map(([k, s]) => (
            <SchemaField
              key={k}
              id={fid(`opt-${k}`)}
              label={k}
              schema={s}
              value={item[k]}
              onChange={(v) => setKey(k, v)}
              required={schema.required?.includes(k) ?? false}
              path={k}
              pointer={`/${k}`}
              ctx={ctx}
              paramAccepts={type?.params[k]}
              expression={type?.expressions[k]}
            />
          ))}
        {description}
      </>
    );
  } else if (kind === "input") {
    const cols = Array.isArray(item.columns) ? (item.columns as TItem[]) : [];
    const setCols = (list: TItem[]) => setKey("columns", list.length ? list : undefined, `${node.id}:columns`);
    body = (
      <>
        {nameField}
        <SelectField
          id={fid("kind")}
          label="Kind"
          value={String(item.kind ?? "")}
          options={[
            { value: "layer", label: "Layer (features)" },
            { value: "table", label: "Table (rows)" },
            { value: "area", label: "Area (one polygon)" },
          ]}
          onChange={(v) => {
            const next: TItem = { ...item, kind: v };
            if (v !== "layer") delete next.geometry;
            if (v === "area") delete next.columns;
            set(next);
          }}
          problems={problemsAt("/kind")}
        />
        <Check
          id={fid("optional")}
          label="Optional (the caller may leave it out)"
          checked={item.optional === true}
          onChange={(v) => setKey("optional", v ? true : undefined)}
        />
        {item.kind === "layer" ? (
          <SelectField
            id={fid("geometry")}
            label="Geometry"
            value={String(item.geometry ?? "")}
            options={[
              { value: "", label: "Any (not declared)" },
              { value: "point", label: "Points" },
              { value: "line", label: "Lines" },
              { value: "polygon", label: "Polygons" },
              { value: "any", label: "Any" },
            ]}
            onChange={(v) => setKey("geometry", v || undefined)}
            problems={problemsAt("/geometry")}
          />
        ) : null}
        {item.kind !== "area" ? (
          <fieldset className="grid gap-2 rounded-md border p-2">
            <legend className="px-1 text-sm font-medium">Declared columns (optional)</legend>
            {cols.map((c, i) => (
              <div key={i} className="grid gap-1 rounded border border-dashed p-2" role="group" aria-label={`Column ${i + 1}`}>
                <TextField
                  id={fid(`col-${i}-name`)}
                  label={`Column ${i + 1} name`}
                  value={String(c.name ?? "")}
                  onChange={(v) => setCols(cols.map((x, j) => (j === i ? { ...x, name: v } : x)))}
                  problems={problemsAt(`/columns/${i}`)}
                />
                <div className="flex flex-wrap items-end gap-2">
                  <div className="min-w-0 flex-1">
                    <SelectField
                      id={fid(`col-${i}-type`)}
                      label={`Column ${i + 1} type`}
                      value={String(c.type ?? "any")}
                      options={COLUMN_TYPES.map((t) => ({ value: t, label: t }))}
                      onChange={(v) => setCols(cols.map((x, j) => (j === i ? { ...x, type: v } : x)))}
                    />
                  </div>
                  <Check
                    id={fid(`col-${i}-required`)}
                    label="Required"
                    checked={c.required === true}
                    onChange={(v) =>
                      setCols(
                        cols.map((x, j) => {
                          if (j !== i) return x;
                          const { required: _r, ...rest } = x;
                          return v ? { ...rest, required: true } : rest;
                        }),
                      )
                    }
                  />
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove column ${i + 1}`}
                    onClick={() => setCols(cols.filter((_, j) => j !== i))}
                  >
                    <Trash2Icon aria-hidden="true" />
                  </Button>
                </div>
              </div>
            ))}
            <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => setCols([...cols, { name: "", type: "any" }])}>
              <PlusIcon aria-hidden="true" /> Add a column
            </Button>
          </fieldset>
        ) : null}
        {description}
      </>
    );
  } else if (kind === "parameter") {
    const type = String(item.type ?? "");
    const numeric = type === "number" || type === "integer";
    const numberKey = (k: string, label: string) => (
      <TextField
        id={fid(k)}
        label={`${label} (optional)`}
        value={item[k] === undefined ? "" : String(item[k])}
        onChange={(v) => setKey(k, v.trim() === "" || !Number.isFinite(Number(v)) ? undefined : Number(v))}
        problems={problemsAt(`/${k}`)}
      />
    );
    body = (
      <>
        {nameField}
        <SelectField
          id={fid("type")}
          label="Type"
          value={type}
          options={PARAM_TYPES.map((t) => ({ value: t, label: t }))}
          onChange={(v) => {
            // Only what every type has stays: range, values and default belong to the old type.
            const next: TItem = { name: item.name, type: v };
            if (item.required !== undefined) next.required = item.required;
            if (item.description !== undefined) next.description = item.description;
            if (v === "enum") next.values = ["a", "b"];
            set(next);
          }}
          problems={problemsAt("/type")}
        />
        {type === "boolean" ? (
          <SelectField
            id={fid("default")}
            label="Default (optional)"
            value={item.default === undefined ? "" : String(item.default)}
            options={[
              { value: "", label: "None" },
              { value: "true", label: "true" },
              { value: "false", label: "false" },
            ]}
            onChange={(v) => setKey("default", v === "" ? undefined : v === "true")}
            problems={problemsAt("/default")}
          />
        ) : (
          <TextField
            id={fid("default")}
            label="Default (optional)"
            value={item.default === undefined ? "" : String(item.default)}
            onChange={(v) => setKey("default", v === "" ? undefined : numeric ? (Number.isFinite(Number(v)) ? Number(v) : v) : v)}
            problems={problemsAt("/default")}
          />
        )}
        {numeric ? (
          <>
            {numberKey("minimum", "Minimum")}
            {numberKey("exclusiveMinimum", "More than")}
            {numberKey("maximum", "Maximum")}
          </>
        ) : null}
        {type === "enum" ? (
          <TextField
            id={fid("values")}
            label="Values (comma-separated)"
            value={Array.isArray(item.values) ? item.values.join(", ") : ""}
            onChange={(v) =>
              setKey(
                "values",
                v
                  .split(",")
                  .map((x) => x.trim())
                  .filter(Boolean),
              )
            }
            problems={problemsAt("/values")}
          />
        ) : null}
        <Check
          id={fid("required")}
          label="Required (the caller must set it)"
          checked={item.required === true}
          onChange={(v) => setKey("required", v ? true : undefined)}
        />
        {description}
      </>
    );
  } else {
    body = (
      <>
        {nameField}
        <SelectField
          id={fid("kind")}
          label="Kind"
          value={String(item.kind ?? "")}
          options={[
            { value: "layer", label: "Layer (features)" },
            { value: "table", label: "Table (rows)" },
          ]}
          onChange={(v) => set({ ...item, kind: v })}
          problems={problemsAt("/kind")}
        />
        {readsSelect("from", "Comes from")}
        {description}
      </>
    );
  }

  return (
    <form className="grid gap-3" aria-label={`${node.data.title} ${node.data.name}`} onSubmit={(e) => e.preventDefault()} data-testid="node-inspector">
      <h3 className="font-semibold">
        {node.data.title} <span className="font-mono">{node.data.name}</span>
      </h3>
      {mine.length > 0 ? (
        <ul className="grid gap-1 rounded-md border border-destructive p-2 text-xs text-destructive dark:text-red-300" aria-label="Problems of this node">
          {mine.map((p, i) => (
            <li key={i}>
              <code className="font-mono break-all">{p.field.slice(prefix.length) || "/"}</code> {p.message}
            </li>
          ))}
        </ul>
      ) : null}
      {body}
      <Button type="button" variant="outline" className="justify-self-start" onClick={onDelete}>
        <Trash2Icon aria-hidden="true" /> Delete {kind === "parameter" ? "parameter" : kind}
      </Button>
    </form>
  );
}

function ManySources(props: {
  doc: TFlowDoc;
  node: TCanvasNode;
  nodes: TCanvasNode[];
  catalogue: readonly TCanvasStepType[];
  handle: string;
  options: { value: string; label: string }[];
  onChange: (doc: TFlowDoc) => void;
  problems: string[];
}) {
  const { doc, node, handle } = props;
  const list = Array.isArray(node.data.item[handle]) ? (node.data.item[handle] as unknown[]) : [];
  const id = `inspector-many-${handle}`;
  return (
    <fieldset className="grid gap-2 rounded-md border p-2">
      <legend className="px-1 text-sm font-medium">Reads “{handle}” from</legend>
      <ul className="grid gap-1 text-sm">
        {list.map((name, i) => (
          <li key={i} className="flex items-center justify-between gap-2">
            <span className="font-mono">{String(name)}</span>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Stop reading ${String(name)}`}
              onClick={() => {
                const next = structuredClone(doc);
                const item = next.steps![node.data.index]!;
                item[handle] = list.filter((_, j) => j !== i);
                props.onChange(next);
              }}
            >
              <Trash2Icon aria-hidden="true" />
            </Button>
          </li>
        ))}
      </ul>
      <Label htmlFor={id}>Add a source</Label>
      <NativeSelect id={id} value="" onChange={(e) => e.target.value && props.onChange(connect(doc, props.catalogue, e.target.value, node.id, handle))}>
        <option value="">Choose…</option>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
      {props.problems.length ? <p className="text-xs text-destructive dark:text-red-300">{props.problems.join(" ")}</p> : null}
    </fieldset>
  );
}
