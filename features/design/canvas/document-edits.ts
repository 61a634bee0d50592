/** The edits of the flow document that are not about edges (those: flow-connections.ts). Pure, tested in flow-graph-model.test.ts. */
import {
  asItems,
  SECTIONS,
  str,
  type TCanvasStepType,
  type TFlowDoc,
  type TItem,
  type TNodeKind,
  type TSection,
} from "@/features/design/canvas/flow-graph-model";

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
  const names = (items: unknown, key: string) => asItems(items).flatMap((i) => str(i[key]) || []);
  return { data: [...names(doc.inputs, "name"), ...names(doc.steps, "id")], parameters: names(doc.parameters, "name"), results: names(doc.results, "key") };
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

/** The document with a palette entry (`step:<type>`, `input:<kind>`, `parameter:<type>`, `result:<kind>`) added under a fresh name, and the new node's id; null for an unknown step type. */
export function addEntry(doc: TFlowDoc, catalogue: readonly TCanvasStepType[], entryId: string): { next: TFlowDoc; nodeId: string } | null {
  const [what, arg] = entryId.split(":") as [string, string];
  const used = namesInUse(doc);
  if (what === "step") {
    const type = catalogue.find((c) => c.type === arg);
    if (!type) return null;
    const item = newStep(doc, type);
    return { next: addItem(doc, "steps", item), nodeId: `step:${String(item.id)}` };
  }
  if (what === "input") {
    const name = freshName(arg === "area" ? "area" : arg === "table" ? "rows" : "layer", used.data);
    return { next: addItem(doc, "inputs", { name, kind: arg }), nodeId: `input:${name}` };
  }
  if (what === "parameter") {
    const name = freshName("parameter", used.parameters);
    return { next: addItem(doc, "parameters", { name, type: arg || "number" }), nodeId: `param:${name}` };
  }
  const key = freshName(arg === "table" ? "table" : "features", used.results);
  return { next: addItem(doc, "results", { key, kind: arg }), nodeId: `result:${key}` };
}
