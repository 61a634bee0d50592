/**
 * The canvas's model: a flow version document (docs/flow-format.md) as a graph of nodes and
 * edges for @xyflow/react, and back, plus the edits the canvas makes on the document. Pure (no
 * React), so it is unit-tested (flow-graph-model.test.ts: every demo flow round-trips).
 *
 * Nodes: one per input (`input:<name>`), parameter (`param:<name>`), step (`step:<id>`) and
 * result (`result:<key>`); a name used twice gets `~<n>` appended, so every node id is unique
 * even in a faulty document. Edges:
 * - a step's source option (`source`, `by`, `sources` ...) → an edge from the node it names
 *   to the step's target handle of that option key (`many` options: one edge per entry, in
 *   order); a result's `from` → an edge into its `from` handle;
 * - a parameter a step reads (`{"param"}` in an option, `["var", name]` in an expression) →
 *   a dashed edge into the step's `params` handle (shown, not editable: forms set them).
 *
 * The document stays the single truth: `documentToGraph` derives the graph, and
 * `graphToDocument` writes a changed graph (an edge added or removed, nodes removed) back.
 * A reference naming nothing on the canvas (an `unknown_reference`) has no edge and is kept.
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

const SECTIONS = [
  ["inputs", "input", "name"],
  ["parameters", "parameter", "name"],
  ["steps", "step", "id"],
  ["results", "result", "key"],
] as const;
type TSection = (typeof SECTIONS)[number][0];
const PREFIX: Record<TNodeKind, string> = { input: "input", parameter: "param", step: "step", result: "result" };
export const RESULT_HANDLE: TNodeHandle = { key: "from", accepts: [], many: false, required: true };
/** The handle parameter edges end at. */
export const PARAMS_HANDLE = "params";

const asItems = (v: unknown): TItem[] => (Array.isArray(v) ? v.map((x) => (x && typeof x === "object" && !Array.isArray(x) ? (x as TItem) : {})) : []);
const str = (v: unknown) => (typeof v === "string" ? v : "");

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
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  if (kind === "step") return type?.label ?? (str(item.type) || "Step");
  if (kind === "input") return `${cap(str(item.kind) || "unknown")} input`;
  if (kind === "parameter") return `${cap(str(item.type) || "unknown")} parameter`;
  return `${cap(str(item.kind) || "unknown")} result`;
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
  // A name read by a step or result: the step of that id, else the input of that name (first of each).
  const readable = new Map<string, string>();
  asItems(doc.inputs).forEach((item, i) => {
    const n = str(item.name);
    if (n && !readable.has(n)) readable.set(n, ids.inputs[i]!);
  });
  asItems(doc.steps).forEach((item, i) => {
    const n = str(item.id);
    if (n && !readable.has(`step:${n}`)) readable.set(`step:${n}`, ids.steps[i]!);
  });
  const nodeOfName = (name: string) => readable.get(`step:${name}`) ?? readable.get(name);
  const paramNode = new Map<string, string>();
  asItems(doc.parameters).forEach((item, i) => {
    const n = str(item.name);
    if (n && !paramNode.has(n)) paramNode.set(n, ids.parameters[i]!);
  });

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

/** What a node yields: an input's kind, a step's output (`same`: its first source's), unknown otherwise. */
export function outputKind(doc: TFlowDoc, catalogue: readonly TCanvasStepType[], name: string, seen = new Set<string>()): TOutputKind {
  const step = asItems(doc.steps).find((s) => s.id === name);
  if (step) {
    if (seen.has(name)) return "unknown";
    seen.add(name);
    const type = catalogue.find((c) => c.type === step.type);
    if (!type) return "unknown";
    if (type.output !== "same") return type.output;
    const first = type.inputs[0];
    const v = first ? step[first.key] : undefined;
    const src = Array.isArray(v) ? v[0] : v;
    const k = typeof src === "string" ? outputKind(doc, catalogue, src, seen) : "unknown";
    return k === "area" ? "features" : k;
  }
  const input = asItems(doc.inputs).find((i) => i.name === name);
  if (input) return input.kind === "layer" ? "features" : input.kind === "table" ? "rows" : input.kind === "area" ? "area" : "unknown";
  return "unknown";
}

/** Names (input names, step ids) the node `name` reads, directly or through other steps. */
function upstreamOf(doc: TFlowDoc, catalogue: readonly TCanvasStepType[], name: string): Set<string> {
  const out = new Set<string>();
  const stack = [name];
  while (stack.length) {
    const n = stack.pop()!;
    const step = asItems(doc.steps).find((s) => s.id === n);
    const type = step && catalogue.find((c) => c.type === step.type);
    for (const i of type?.inputs ?? []) {
      const v = step![i.key];
      for (const src of Array.isArray(v) ? v : [v])
        if (typeof src === "string" && !out.has(src)) {
          out.add(src);
          stack.push(src);
        }
    }
  }
  return out;
}

/**
 * Whether an edge from node `source` into handle `handle` of node `target` makes sense: the
 * source yields data (an input or a step), the handle accepts its kind (a layer result
 * features or an area, a table result rows), and no step would read itself (no cycle).
 */
export function canConnect(
  doc: TFlowDoc,
  catalogue: readonly TCanvasStepType[],
  nodes: readonly TCanvasNode[],
  source: string,
  target: string,
  handle: string,
): boolean {
  const s = nodes.find((n) => n.id === source);
  const t = nodes.find((n) => n.id === target);
  if (!s || !t || !s.data.output || source === target || !s.data.name) return false;
  const h = t.data.handles.find((x) => x.key === handle);
  if (!h) return false;
  const kind = outputKind(doc, catalogue, s.data.name);
  if (t.data.kind === "result") {
    if (kind === "unknown") return true;
    return t.data.item.kind === "table" ? kind === "rows" : t.data.item.kind === "layer" ? kind !== "rows" : true;
  }
  if (kind !== "unknown" && !h.accepts.includes(kind)) return false;
  if (t.data.kind === "step" && (s.data.name === t.data.name || upstreamOf(doc, catalogue, s.data.name).has(t.data.name))) return false;
  return true;
}

/** The document with an edge from `source` into `handle` of `target` (a single option's earlier edge replaced, a list's appended). */
export function connect(doc: TFlowDoc, catalogue: readonly TCanvasStepType[], source: string, target: string, handle: string): TFlowDoc {
  const { nodes, edges } = documentToGraph(doc, catalogue);
  const t = nodes.find((n) => n.id === target);
  const h = t?.data.handles.find((x) => x.key === handle);
  if (!t || !h) return doc;
  const into = edges.filter((e) => e.target === target && e.targetHandle === handle);
  if (h.many && into.some((e) => e.source === source)) return doc;
  const kept = h.many ? edges : edges.filter((e) => !(e.target === target && e.targetHandle === handle));
  const edge: TCanvasEdge = { id: `${source}->${target}:${handle}:new`, source, target, targetHandle: handle, order: into.length };
  if (h.many) {
    // Entries that named nothing on the canvas stay, before the new one.
    const v = t.data.item[handle];
    const list = Array.isArray(v) ? v : [];
    const names = new Set(nodes.map((n) => n.data.name));
    if (list.some((x) => typeof x !== "string" || !names.has(x))) {
      const next = structuredClone(doc);
      const item = asItems(next.steps)[t.data.index]!;
      item[handle] = [...list, nodes.find((n) => n.id === source)!.data.name];
      return next;
    }
  }
  return graphToDocument(doc, nodes, [...kept, edge]);
}

/** The document without the given edges (their options removed) and nodes (references to them removed too). */
export function removeFromDocument(doc: TFlowDoc, catalogue: readonly TCanvasStepType[], nodeIds: readonly string[], edgeIds: readonly string[]): TFlowDoc {
  const { nodes, edges } = documentToGraph(doc, catalogue);
  const gone = new Set(nodeIds);
  const keptNodes = nodes.filter((n) => !gone.has(n.id));
  // Items after a removed one move up: re-number each section.
  for (const kind of ["input", "parameter", "step", "result"] as const)
    keptNodes.filter((n) => n.data.kind === kind).forEach((n, i) => (n.data = { ...n.data, index: i }));
  const keptEdges = edges.filter((e) => !gone.has(e.source) && !gone.has(e.target) && !edgeIds.includes(e.id));
  let next = graphToDocument(doc, keptNodes, keptEdges);
  // A removed parameter: its `{"param"}` uses go too (the option falls back to its default).
  const removedParams = nodes.filter((n) => gone.has(n.id) && n.data.kind === "parameter").map((n) => n.data.name);
  if (removedParams.length > 0) {
    next = structuredClone(next);
    for (const s of asItems(next.steps))
      for (const [k, v] of Object.entries(s)) if (v && typeof v === "object" && removedParams.includes((v as TItem).param as string)) delete s[k];
  }
  return next;
}

const NAME_RE = /[^A-Za-z0-9_]/g;
/** `base` made a valid name (letters, digits, _) not yet used among `taken`: `buffer`, `buffer_2` ... */
export function freshName(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  let b = base.replace(NAME_RE, "_") || "item";
  if (!/^[A-Za-z_]/.test(b)) b = `_${b}`;
  if (!used.has(b)) return b;
  for (let n = 2; ; n++) if (!used.has(`${b}_${n}`)) return `${b}_${n}`;
}

/** Every input name and step id (one namespace), parameter name and result key in use. */
export function namesInUse(doc: TFlowDoc): { data: string[]; parameters: string[]; results: string[] } {
  return {
    data: [...asItems(doc.inputs).map((i) => str(i.name)), ...asItems(doc.steps).map((s) => str(s.id))].filter(Boolean),
    parameters: asItems(doc.parameters)
      .map((p) => str(p.name))
      .filter(Boolean),
    results: asItems(doc.results)
      .map((r) => str(r.key))
      .filter(Boolean),
  };
}

/** A new step of `type`: a fresh id, its required options that have a plain default value filled in. Sources are left to connections. */
export function newStep(doc: TFlowDoc, type: TCanvasStepType): TItem {
  const item: TItem = { id: freshName(type.type, namesInUse(doc).data), type: type.type };
  const schema = type.options as { properties?: Record<string, TItem>; required?: string[] };
  const inputKeys = new Set(type.inputs.map((i) => i.key));
  for (const key of schema.required ?? []) {
    if (inputKeys.has(key)) continue;
    const prop = schema.properties?.[key] ?? {};
    const plain = (Array.isArray(prop.anyOf) ? (prop.anyOf[0] as TItem) : prop) ?? {};
    if (Array.isArray(plain.enum)) item[key] = plain.enum[0];
    else if (plain.type === "boolean") item[key] = false;
    else if (plain.type === "array" && (plain.items as TItem | undefined)?.type === "object") {
      const props = ((plain.items as TItem).properties ?? {}) as Record<string, TItem>;
      if (props.op && props.as) item[key] = [{ op: "count", as: "count" }];
    }
  }
  return item;
}

/** The document with `item` appended to `section`. */
export function addItem(doc: TFlowDoc, section: TSection, item: TItem): TFlowDoc {
  return { ...doc, [section]: [...asItems(doc[section]), item] };
}

/** The document with the item at `index` of `section` replaced. */
export function replaceItem(doc: TFlowDoc, section: TSection, index: number, item: TItem): TFlowDoc {
  const list = asItems(doc[section]).slice();
  list[index] = item;
  return { ...doc, [section]: list };
}

/** Section of a node kind. */
export function sectionOf(kind: TNodeKind): TSection {
  return SECTIONS.find(([, k]) => k === kind)![0];
}

function replaceVar(value: unknown, from: string, to: string): unknown {
  if (Array.isArray(value)) {
    if (value[0] === "var" && value[1] === from && value.length === 2) return ["var", to];
    return value.map((v) => replaceVar(v, from, to));
  }
  if (value && typeof value === "object") {
    const o = value as TItem;
    if (Object.keys(o).length === 1 && o.param === from) return { param: to };
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, replaceVar(v, from, to)]));
  }
  return value;
}

/**
 * The document with a node renamed and every reference to it following: an input or step
 * (step sources, result `from`), or a parameter (`{"param"}` and `["var"]` uses).
 */
export function renameInDocument(doc: TFlowDoc, catalogue: readonly TCanvasStepType[], kind: TNodeKind, from: string, to: string): TFlowDoc {
  const next = structuredClone(doc);
  if (!from || from === to) return next;
  if (kind === "parameter") {
    next.steps = asItems(next.steps).map((s) => replaceVar(s, from, to) as TItem);
    return next;
  }
  if (kind === "result") return next;
  for (const s of asItems(next.steps)) {
    const type = catalogue.find((c) => c.type === s.type);
    for (const i of type?.inputs ?? []) {
      const v = s[i.key];
      if (v === from) s[i.key] = to;
      else if (Array.isArray(v)) s[i.key] = v.map((x) => (x === from ? to : x));
    }
  }
  for (const r of asItems(next.results)) if (r.from === from) r.from = to;
  return next;
}
