/**
 * Where each value of a JSON text is: RFC 6901 JSON Pointer → `{from, to}` offsets, to show a
 * validator's error at its place. It walks the editor's own Lezer JSON tree, which recovers
 * from malformed text; `locate()` falls back to the nearest mapped ancestor (a missing
 * property is shown on the object that lacks it).
 */
import { jsonLanguage } from "@codemirror/lang-json";

export type TSpan = { from: number; to: number };

const escapeToken = (t: string) => t.replaceAll("~", "~0").replaceAll("/", "~1");

/** A node of the JSON syntax tree (Lezer, as the editor parses it). */
type TNode = ReturnType<typeof jsonLanguage.parser.parse>["topNode"];
const VALUES = new Set(["Object", "Array", "String", "Number", "True", "False", "Null"]);

/** The value nodes among a node's children (not punctuation, property names or error nodes). */
function values(node: TNode): TNode[] {
  const out: TNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (VALUES.has(c.name)) out.push(c);
  return out;
}

export function jsonPositions(text: string): Map<string, TSpan> {
  const out = new Map<string, TSpan>();
  const visit = (node: TNode, pointer: string): void => {
    out.set(pointer, { from: node.from, to: node.to });
    if (node.name === "Array") values(node).forEach((v, n) => visit(v, `${pointer}/${n}`));
    if (node.name !== "Object") return;
    for (const property of node.getChildren("Property")) {
      const name = property.getChild("PropertyName");
      const [value] = values(property);
      if (!name || !value) continue;
      const raw = text.slice(name.from, name.to);
      let key = raw.slice(1, -1);
      try {
        key = JSON.parse(raw) as string;
      } catch {
        // an unfinished escape: the key as written
      }
      visit(value, `${pointer}/${escapeToken(key)}`);
    }
  };
  const [top] = values(jsonLanguage.parser.parse(text).topNode);
  if (top) visit(top, "");
  return out;
}

/** The span of `pointer`, or of its nearest mapped ancestor, or the whole text. */
export function locate(positions: Map<string, TSpan>, pointer: string, textLength: number): TSpan {
  let p = pointer;
  for (;;) {
    const span = positions.get(p);
    if (span) {
      // Show containers by their first character only, so a fault deep inside does not paint the whole block.
      return span.to - span.from > 80 ? { from: span.from, to: span.from + 1 } : span;
    }
    if (p === "") return { from: 0, to: Math.min(1, textLength) };
    p = p.slice(0, p.lastIndexOf("/"));
  }
}
