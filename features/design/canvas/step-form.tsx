"use client";
/** The form of a step node: its source options (source-fields.tsx) and its other options from the catalogue's JSON Schema (schema-field.tsx). */
import type { TCanvasStepType } from "@/features/design/canvas/flow-graph-model";
import { SchemaField, type TFieldContext, type TSchema } from "@/features/design/canvas/schema-field";
import type { TNodeForm } from "@/features/design/canvas/node-form";
import { ManySources, SourceSelect } from "@/features/design/canvas/source-fields";

/** A step's sources and options. */
export function StepForm({ f, type }: { f: TNodeForm; type: TCanvasStepType | undefined }) {
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
