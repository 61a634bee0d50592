"use client";
/**
 * The form of the selected node, beside the canvas: name and description (node-form.tsx), its
 * problems, the form of its kind and a delete button. A step: its sources (source-fields.tsx)
 * and its other options from the catalogue's JSON Schema (schema-field.tsx); an input:
 * input-form.tsx; a parameter: parameter-form.tsx; a result: kind and source. Every change is
 * a new document.
 */
import { Trash2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/features/design/canvas/form-fields";
import { DATA_KINDS, InputForm } from "@/features/design/canvas/input-form";
import { NameField, nodeForm, type TNodeForm, type TNodeInspectorProps } from "@/features/design/canvas/node-form";
import { ParameterForm } from "@/features/design/canvas/parameter-form";
import { ManySources, SourceSelect } from "@/features/design/canvas/source-fields";
import { SchemaField, type TFieldContext, type TSchema } from "@/features/design/canvas/schema-field";
import type { TCanvasStepType } from "@/features/design/canvas/flow-graph-model";

/** The selected node's form (see module doc). */
export function NodeInspector(props: TNodeInspectorProps) {
  const f = nodeForm(props);
  const { node, kind, item } = f;
  const type = kind === "step" ? props.catalogue.find((c) => c.type === item.type) : undefined;
  return (
    <form className="grid gap-3" aria-label={`${node.data.title} ${node.data.name}`} onSubmit={(e) => e.preventDefault()} data-testid="node-inspector">
      <h3 className="font-semibold">
        {node.data.title} <span className="font-mono">{node.data.name}</span>
      </h3>
      {f.mine.length > 0 ? (
        <ul className="grid gap-1 rounded-md border border-destructive p-2 text-xs text-destructive dark:text-red-300" aria-label="Problems of this node">
          {f.mine.map((p, i) => (
            <li key={i}>
              <code className="font-mono break-all">{p.field.slice(f.prefix.length) || "/"}</code> {p.message}
            </li>
          ))}
        </ul>
      ) : null}
      {kind === "step" ? (
        <p className="text-sm text-muted-foreground">{type?.summary.replaceAll("`", "") ?? `Unknown step type "${String(item.type)}".`}</p>
      ) : null}
      <NameField f={f} />
      {kind === "step" ? <StepForm f={f} type={type} /> : null}
      {kind === "input" ? <InputForm f={f} /> : null}
      {kind === "parameter" ? <ParameterForm f={f} /> : null}
      {kind === "result" ? (
        <>
          <SelectField
            id={f.fid("kind")}
            label="Kind"
            value={String(item.kind ?? "")}
            options={DATA_KINDS}
            onChange={(v) => f.set({ ...item, kind: v })}
            problems={f.problemsAt("/kind")}
          />
          <SourceSelect f={f} handle="from" label="Comes from" />
        </>
      ) : null}
      <TextField
        id={f.fid("description")}
        label="Description (optional)"
        value={String(item.description ?? "")}
        onChange={(v) => f.setKey("description", v)}
        problems={f.problemsAt("/description")}
      />
      <Button type="button" variant="outline" className="justify-self-start" onClick={props.onDelete}>
        <Trash2Icon aria-hidden="true" /> Delete {kind}
      </Button>
    </form>
  );
}

/** A step's sources and options. */
function StepForm({ f, type }: { f: TNodeForm; type: TCanvasStepType | undefined }) {
  const { item } = f;
  const schema = (type?.options ?? {}) as TSchema;
  const inputKeys = new Set(type?.inputs.map((i) => i.key) ?? []);
  const ctx: TFieldContext = {
    parameters: (f.doc.parameters ?? []).map((p) => ({ name: String(p.name ?? ""), type: String(p.type ?? "") })).filter((p) => p.name),
    columnsAt: (path) => {
      const source = type?.columns[path] ?? type?.columns[path.replace(/\.from$/, "")];
      const name = source ? item[source] : type?.inputs[0] ? item[type.inputs[0].key] : undefined;
      if (typeof name !== "string") return null;
      const c = f.columns[name];
      return c ? c.fields.map((x) => x.name) : null;
    },
    problemsAt: f.problemsAt,
  };
  return (
    <>
      {type?.inputs.map((i) =>
        i.many ? <ManySources key={i.key} f={f} handle={i.key} /> : <SourceSelect key={i.key} f={f} handle={i.key} label={`Reads “${i.key}” from`} />,
      )}
      {Object.entries(schema.properties ?? {})
        .filter(([k]) => !inputKeys.has(k))
        .map(([k, s]) => (
          <SchemaField
            key={k}
            id={f.fid(`opt-${k}`)}
            label={k}
            schema={s}
            value={item[k]}
            onChange={(v) => f.setKey(k, v)}
            required={schema.required?.includes(k) ?? false}
            path={k}
            pointer={`/${k}`}
            ctx={ctx}
            paramAccepts={type?.params[k]}
            expression={type?.expressions[k]}
          />
        ))}
    </>
  );
}
