/**
 * Connecting nodes on the flow document: what a node yields, whether an edge makes sense (the
 * kinds fit, no cycle), and the document with an edge added or edges and nodes removed.
 * Pure, tested in flow-graph-model.test.ts.
 */
import {
  asItems,
  documentToGraph,
  graphToDocument,
  type TCanvasEdge,
  type TCanvasNode,
  type TCanvasStepType,
  type TFlowDoc,
  type TItem,
  type TOutputKind,
} from "@/features/design/canvas/flow-graph-model";

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
