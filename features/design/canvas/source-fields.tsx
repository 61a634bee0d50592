"use client";
/** What a node reads, as form controls (the keyboard's way to connect): one source as a select, many as a list with remove and add. */
import { Trash2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { canConnect, connect, removeFromDocument } from "@/features/design/canvas/flow-connections";
import { SelectField, type TOption } from "@/features/design/canvas/form-fields";
import type { TNodeForm } from "@/features/design/canvas/node-form";

/** The nodes whose output may go into `handle` of the form's node. */
function sourcesFor(f: TNodeForm, handle: string): TOption[] {
  return f.nodes
    .filter((n) => n.data.output && n.id !== f.node.id && canConnect(f.doc, f.catalogue, f.nodes, n.id, f.node.id, handle))
    .map((n) => ({ value: n.id, label: `${n.data.name} (${n.data.title})` }));
}

/** The one source an option reads: the fitting nodes, and what it names now even if that does not fit or is not on the canvas. */
export function SourceSelect({ f, handle, label }: { f: TNodeForm; handle: string; label: string }) {
  const current = f.item[handle];
  const named = typeof current === "string" && current ? current : "";
  const currentNode = named ? f.nodes.find((n) => n.data.output && n.data.name === named) : undefined;
  const options = sourcesFor(f, handle);
  if (currentNode && !options.some((o) => o.value === currentNode.id))
    options.unshift({ value: currentNode.id, label: `${currentNode.data.name} (does not fit)` });
  if (named && !currentNode) options.unshift({ value: `?${named}`, label: `${named} (not on the canvas)` });
  return (
    <SelectField
      id={f.fid(`reads-${handle}`)}
      label={label}
      value={currentNode ? currentNode.id : named ? `?${named}` : ""}
      options={[{ value: "", label: "Not connected" }, ...options]}
      onChange={(v) => {
        if (v.startsWith("?")) return;
        if (v === "") f.onChange(removeFromDocument(f.doc, f.catalogue, [], [`${currentNode?.id}->${f.node.id}:${handle}`]));
        else f.onChange(connect(f.doc, f.catalogue, v, f.node.id, handle));
      }}
      problems={f.problemsAt(`/${handle}`)}
    />
  );
}

/** The sources a `many` option reads, in order: remove one, or add one of the fitting nodes. */
export function ManySources({ f, handle }: { f: TNodeForm; handle: string }) {
  const list = Array.isArray(f.item[handle]) ? (f.item[handle] as unknown[]) : [];
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
                const next = structuredClone(f.doc);
                next.steps![f.index]![handle] = list.filter((_, j) => j !== i);
                f.onChange(next);
              }}
            >
              <Trash2Icon aria-hidden="true" />
            </Button>
          </li>
        ))}
      </ul>
      <FormField id={`inspector-many-${handle}`} label="Add a source" error={f.problemsAt(`/${handle}`).join(" ")}>
        <NativeSelect value="" onChange={(e) => e.target.value && f.onChange(connect(f.doc, f.catalogue, e.target.value, f.node.id, handle))}>
          <option value="">Choose…</option>
          <SelectOptions options={sourcesFor(f, handle)} />
        </NativeSelect>
      </FormField>
    </fieldset>
  );
}
