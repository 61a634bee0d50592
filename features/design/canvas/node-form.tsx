"use client";
/**
 * The state every node form shares: the node's item and section, control ids, the server's
 * problems below its pointer, and the edits (`set`, `setKey`; one undo step per field while
 * typing). Also the name field (a rename renames every reference).
 */
import { renameInDocument, replaceItem, sectionOf } from "@/features/design/canvas/document-edits";
import type { TCanvasNode, TCanvasStepType, TFlowDoc, TItem } from "@/features/design/canvas/flow-graph-model";
import { TextField } from "@/features/design/canvas/form-fields";
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

export type TNodeForm = ReturnType<typeof nodeForm>;

/** The form state of the node in `props` (see module doc). */
export function nodeForm(props: TNodeInspectorProps) {
  const { doc, node, onChange } = props;
  const { kind, index, item } = node.data;
  const section = sectionOf(kind);
  const prefix = `/${section}/${index}`;
  const mine = props.problems.filter((p) => p.field === prefix || p.field.startsWith(`${prefix}/`));
  const set = (next: TItem, coalesce?: string) => onChange(replaceItem(doc, section, index, next), coalesce);
  return {
    ...props,
    kind,
    index,
    item,
    section,
    prefix,
    /** The node's problems. */
    mine,
    /** A control's id: `inspector-<kind>-<key>`. */
    fid: (k: string) => `inspector-${kind}-${k}`.replace(/[^A-Za-z0-9_-]/g, "-"),
    /** Messages about the pointer below the node and, unless `exact`, inside it. */
    problemsAt: (pointer: string, exact = false) =>
      mine.filter((p) => p.field === `${prefix}${pointer}` || (!exact && p.field.startsWith(`${prefix}${pointer}/`))).map((p) => p.message),
    set,
    /** Sets (or, with undefined or "", removes) one key of the item. */
    setKey: (k: string, v: unknown, coalesce?: string) => {
      const next = { ...item };
      if (v === undefined || v === "") delete next[k];
      else next[k] = v;
      set(next, coalesce ?? `${node.id}:${k}`);
    },
  };
}

/** The node's id, name or key: renaming it renames every reference as it is typed. */
export function NameField({ f }: { f: TNodeForm }) {
  const nameKey = f.kind === "step" ? "id" : f.kind === "result" ? "key" : "name";
  return (
    <TextField
      id={f.fid("name")}
      label={f.kind === "step" ? "Step id" : f.kind === "result" ? "Result key" : f.kind === "parameter" ? "Parameter name" : "Input name"}
      value={String(f.item[nameKey] ?? "")}
      onChange={(to) => {
        const from = String(f.item[nameKey] ?? "");
        const replaced = replaceItem(f.doc, f.section, f.index, { ...f.item, [nameKey]: to });
        // Keep references following while the new name is typed (the old one is gone once renamed).
        f.onChange(renameInDocument(replaced, f.catalogue, f.kind, from, to), `${f.kind}:${f.index}:name`);
      }}
      mono
      hint="Letters, digits and _, starting with a letter or _."
      problems={f.problemsAt(`/${nameKey}`)}
    />
  );
}
