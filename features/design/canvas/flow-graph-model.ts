/**
 * The canvas's model: a flow version document (docs/flow-format.md) as nodes and edges for
 * @xyflow/react, and back. Pure, tested in flow-graph-model.test.ts (every demo flow round-trips).
 *
 * Node ids: `input:<name>`, `param:<name>`, `step:<id>`, `result:<key>` (a name used twice gets
 * `~<n>`). Edges: a step's source option (`many` options: one edge per entry, in order) or a
 * result's `from` → an edge into the handle of that key; a parameter a step reads (`{"param"}`,
 * `["var", name]`) → a dashed edge into its `params` handle (shown, not editable). The document
 * stays the single truth; a reference naming nothing on the canvas has no edge and is kept.
 */
import type { TStepCatalogueEntry } from "@/lib/steps/catalogue";

/** A step type as the canvas knows it: the catalogue entry (lib/steps/catalogue.ts). */
export type TCanvasStepType = TStepCatalogueEntry;
export type TItem = Record<string, unknown>;
/** A flow version document as edited: loosely typed, may be faulty. */
export interface TFlowDoc {
  description?: string;
  inputs?: TItem[];
  parameters?: TItem[];
  steps?: TItem[];
  results?: TItem[];
  [key: string]: unknown;
}

export type TNodeKind = "input" | "parameter" | "step" | "result";
/** What flows out of a node: features, rows, an area (one polygon), or unknown. */
export type TOutputKind = "features" | "rows" | "area" | "unknown";

/** A target handle of a node: an option naming a source, or a result's `from`. */
export interface TNodeHandle {
  key: string;
  accepts: readonly string[];
  many: boolean;
  required: boolean;
}

export interface TCanvasNodeData extends Record<string, unknown> {
  kind: TNodeKind;
  /** Position of the item in its section of the document. */
  index: number;
  /** Its name, id or key ("" when missing). */
  name: string;
  item: TItem;
  /** "Buffer", "Table input", "Number parameter", "Layer result" ... */
  title: string;
  handles: TNodeHandle[];
  /** Whether other nodes may read this one (inputs and steps). */
  output: boolean;
  /** Source options that named a node when the graph was made (see graphToDocument). */
  linked: string[];
}

export interface TCanvasNode {
  id: string;
  data: TCanvasNodeData;
}

export interface TCanvasEdge {
  id: string;
  source: string;
  target: string;
  targetHandle: string;
  /** A parameter's use: shown dashed, not deleted by hand. */
  param?: boolean;
  /** Position in a `many` option's list. */
  order?: number;
}

export const SECTIONS = [
  ["inputs", "input", "name"],
  ["parameters", "parameter", "name"],
  ["steps", "step", "id"],
  ["results", "result", "key"],
] as const;
export type TSection = (typeof SECTIONS)[number][0];
const PREFIX: Record<TNodeKind, string> = { input: "input", parameter: "param", step: "step", result: "result" };
export const RESULT_HANDLE: TNodeHandle = { key: "from", accepts: [], many: false, required: true };
/** The handle parameter edges end at. */
export const PARAMS_HANDLE = "params";

/** The items of a section (anything not an object counts as an empty item). */
export const asItems = (v: unknown): TItem[] => (Array.isArray(v) ? v.map((x) => (x && typeof x === "object" && !Array.isArray(x) ? (x as TItem) : {})) : []);
export const str = (v: unknown) => (typeof v === "string" ? v : "");

/** The node ids of each section, in document order (names used twice get `~n`). */
export function sectionNodeIds(doc: TFlowDoc): Record<TSection, string[]> {
  const seen = new Set<string>();
  const out = {} as Record<TSection, string[]>;
  for (const [section, kind, nameKey] of SECTIONS) {
    out[section] = asItems(doc[section]).map((item) => {
      const base = `${PREFIX[kind]}:${str(item[nameKey])}`;
      let id = base;
      for (let n = 2; seen.has(id); n++) id = `${base}~${n}`;
      seen.add(id);
      return id;
    });
  }
  return out;
}

/** The node a JSON Pointer of a validation problem concerns (`/steps/3/max_km/param` → step 3's node), or null. */
export function nodeIdOfPointer(doc: TFlowDoc, pointer: string): string | null {
  const m = /^\/(inputs|parameters|steps|results)\/(\d+)(?:\/|$)/.exec(pointer);
  if (!m) return null;
  return sectionNodeIds(doc)[m[1] as TSection][Number(m[2])] ?? null;
}

/** Parameter names an option value reads: `{"param": name}` or `["var", name]` anywhere inside. */
export function paramsRead(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    if (value[0] === "var" && typeof value[1] === "string") out.add(value[1]);
    for (const v of value) paramsRead(v, out);
  } else if (value && typeof value === "object") {
    const o = value as TItem;
    if (typeof o.param === "string" && Object.keys(o).length === 1) out.add(o.param);
    else for (const v of Object.values(o)) paramsRead(v, out);
  }
  return out;
}

function titleOf(kind: TNodeKind, item: TItem, type: TCanvasStepType | undefined): string {
  if (kind === "step") return type?.label ?? (str(item.type) || "Step");
  const what = str(kind === "parameter" ? item.type : item.kind) || "unknown";
  return `${what.charAt(0).toUpperCase()}${what.slice(1)} ${kind}`;
}

function handlesOf(kind: TNodeKind, type: TCanvasStepType | undefined): TNodeHandle[] {
  if (kind === "result") return [RESULT_HANDLE];
  if (kind !== "step" || !type) return [];
  const required = new Set(((type.options as { required?: string[] }).required ?? []) as string[]);
  return type.inputs.map((i) => ({ key: i.key, accepts: i.accepts, many: i.many, required: required.has(i.key) }));
}

/** The document as nodes and edges (see module doc). */
export function documentToGraph(doc: TFlowDoc, catalogue: readonly TCanvasStepType[]): { nodes: TCanvasNode[]; edges: TCanvasEdge[] } {
  const byType = new Map(catalogue.map((c) => [c.type, c]));
  const ids = sectionNodeIds(doc);
  const nodes: TCanvasNode[] = [];
  // The node of each name (the first with it): a name read by a step or result is the step of
  // that id, else the input of that name; a parameter's uses name the parameter.
  const firstOf = (items: unknown, key: string, nodeIds: string[]) => {
    const out = new Map<string, string>();
    asItems(items).forEach((item, i) => {
      const name = str(item[key]);
      if (name && !out.has(name)) out.set(name, nodeIds[i]!);
    });
    return out;
  };
  const inputNode = firstOf(doc.inputs, "name", ids.inputs);
  const stepNode = firstOf(doc.steps, "id", ids.steps);
  const nodeOfName = (name: string) => stepNode.get(name) ?? inputNode.get(name);
  const paramNode = firstOf(doc.parameters, "name", ids.parameters);

  const edges: TCanvasEdge[] = [];
  for (const [section, kind, nameKey] of SECTIONS) {
    asItems(doc[section]).forEach((item, index) => {
      const id = ids[section][index]!;
      const type = kind === "step" ? byType.get(str(item.type)) : undefined;
      const handles = handlesOf(kind, type);
      const linked: string[] = [];
      for (const h of handles) {
        const v = item[h.key];
        const names = h.many ? (Array.isArray(v) ? v : []) : [v];
        let any = false;
        names.forEach((name, order) => {
          const from = typeof name === "string" ? nodeOfName(name) : undefined;
          if (!from) return;
          any = true;
          edges.push({
            id: `${from}->${id}:${h.key}${h.many ? `:${order}` : ""}`,
            source: from,
            target: id,
            targetHandle: h.key,
            ...(h.many ? { order } : {}),
          });
        });
        if (any) linked.push(h.key);
      }
      if (kind === "step") {
        for (const p of paramsRead(Object.fromEntries(Object.entries(item).filter(([k]) => k !== "id" && k !== "type")))) {
          const from = paramNode.get(p);
          if (from) edges.push({ id: `${from}->${id}:${PARAMS_HANDLE}`, source: from, target: id, targetHandle: PARAMS_HANDLE, param: true });
        }
      }
      nodes.push({
        id,
        data: {
          kind,
          index,
          name: str(item[nameKey]),
          item,
          title: titleOf(kind, item, type),
          handles,
          output: kind === "input" || kind === "step",
          linked,
        },
      });
    });
  }
  return { nodes, edges };
}

/**
 * The document a (changed) graph stands for: each section's items in the order of their
 * nodes' `index`, every source option and result `from` set from the edges into it. An option
 * that was linked to a node and has no edge any more is removed (the edge or the node it came
 * from was deleted); one that named nothing on the canvas is kept as written. `base` gives
 * the rest of the document (description, unknown fields, key order).
 */
export function graphToDocument(base: TFlowDoc, nodes: readonly TCanvasNode[], edges: readonly TCanvasEdge[]): TFlowDoc {
  const nameOf = new Map(nodes.map((n) => [n.id, n.data.name]));
  const out: TFlowDoc = { ...base };
  for (const [section, kind] of SECTIONS) {
    const mine = nodes.filter((n) => n.data.kind === kind).sort((a, b) => a.data.index - b.data.index);
    if (mine.length === 0 && !(section in base)) continue;
    out[section] = mine.map((n) => {
      const item: TItem = { ...n.data.item };
      for (const h of n.data.handles) {
        const into = edges.filter((e) => e.target === n.id && e.targetHandle === h.key && !e.param && nameOf.has(e.source));
        if (into.length > 0) {
          const names = into.sort((a, b) => (a.order ?? 0) - (b.order ?? 0)).map((e) => nameOf.get(e.source)!);
          item[h.key] = h.many ? names : names[names.length - 1];
        } else if (n.data.linked.includes(h.key)) delete item[h.key];
      }
      return item;
    });
  }
  return out;
}
