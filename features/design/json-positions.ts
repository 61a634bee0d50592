/**
 * Where each value of a JSON text is: RFC 6901 JSON Pointer → `{from, to}` character offsets,
 * so the flow editor can show a validator's field error (a pointer into the document) at its
 * place. A tolerant single pass: on malformed text it returns what it mapped so far.
 * `locate()` falls back to the nearest mapped ancestor of a pointer (a missing property is
 * shown on the object that lacks it).
 */
export type TSpan = { from: number; to: number };

const escapeToken = (t: string) => t.replaceAll("~", "~0").replaceAll("/", "~1");

export function jsonPositions(text: string): Map<string, TSpan> {
  const out = new Map<string, TSpan>();
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const str = (): string => {
    const start = ++i;
    let s = "";
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      i++;
    }
    try {
      s = JSON.parse(`"${text.slice(start, i)}"`) as string;
    } catch {
      s = text.slice(start, i);
    }
    i++;
    return s;
  };
  const value = (pointer: string): void => {
    ws();
    const from = i;
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      while (i < text.length && text[i] !== "}") {
        ws();
        if (text[i] !== '"') throw new Error("key");
        const key = str();
        ws();
        if (text[i] !== ":") throw new Error("colon");
        i++;
        value(`${pointer}/${escapeToken(key)}`);
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (c === "[") {
      i++;
      ws();
      let n = 0;
      while (i < text.length && text[i] !== "]") {
        value(`${pointer}/${n++}`);
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (c === '"') {
      str();
    } else {
      while (i < text.length && !",]} \t\n\r".includes(text[i]!)) i++;
      if (i === from) throw new Error("value");
    }
    out.set(pointer, { from, to: Math.min(i, text.length) });
  };
  try {
    value("");
  } catch {
    // keep what was mapped
  }
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
