/**
 * Integers a double cannot hold, kept as their decimal text, as a GeoParquet upload keeps its
 * INT64 values beyond ±(2^53 - 1) (geoparquet-file.ts): a JSON or CSV integer literal such as
 * `1234567890123456789` (an id, a count) would otherwise become the nearest double
 * (1234567890123456768), silently another number.
 *
 * The rule, for every text format: an integer literal (digits, an optional sign; no fraction, no
 * exponent) outside the safe integers, |n| > 2^53 - 1 (`Number.isSafeInteger`), is a wide
 * integer. In a GeoJSON feature's `properties` (at any depth) it is kept as its text, as written;
 * elsewhere in a feature (coordinates, `bbox`, `id`) it is the double JSON.parse makes, as
 * before (a coordinate that large is refused anyway). A CSV column holding one is a text
 * column (csv-stream.ts). Other literals are doubles, rounded as any decimal is (`0.1`, `1e20`).
 *
 * How the JSON readers find them: the streaming tokenizer (geojson-stream.ts) and JSON.parse's
 * reviver (geojson-seq-stream.ts, reading the literal's `context.source`) make a `WideInteger`
 * for each, and `settleWideIntegers` puts the text or the double in its place once the
 * feature is whole, before it is checked.
 */

/** An integer literal of a JSON text beyond the safe integers: its text and the double it reads as. */
export class WideInteger {
  constructor(
    readonly text: string,
    readonly value: number,
  ) {}

  /** Where a message quotes it before it settles (`JSON.stringify`), the number it reads as. */
  toJSON(): number {
    return this.value;
  }
}

const INTEGER = /^[+-]?\d+$/;

/**
 * Whether `text` (a JSON number literal, or a CSV cell) is an integer literal beyond
 * ±(2^53 - 1). Texts of 15 characters or fewer are never (2^53 has 16 digits): one length
 * test for most numbers.
 */
export function isWideIntegerText(text: string): boolean {
  return text.length > 15 && INTEGER.test(text) && !Number.isSafeInteger(Number(text));
}

/** A JSON number literal's value: the double, or a `WideInteger` for a wide integer literal. */
export function jsonNumber(text: string): number | WideInteger {
  const value = Number(text);
  return text.length > 15 && !Number.isSafeInteger(value) && INTEGER.test(text) ? new WideInteger(text, value) : value;
}

/**
 * A `JSON.parse` reviver making a `WideInteger` of each wide integer literal (from its source
 * text, ES2026 JSON.parse source text access); other values as parsed.
 */
export function wideIntegerReviver(this: unknown, _key: string, value: unknown, context?: { source?: string }): unknown {
  return typeof value === "number" && context?.source !== undefined ? jsonNumber(context.source) : value;
}

/**
 * Replaces, in place, each `WideInteger` of a parsed feature (or any JSON value read as one):
 * by its text inside the top-level `properties` member, by its double anywhere else. Returns
 * the value (a `WideInteger` given alone becomes its double). Iterative, any depth.
 */
export function settleWideIntegers(value: unknown): unknown {
  if (value instanceof WideInteger) return value.value;
  const stack: { holder: Record<string, unknown> | unknown[]; asText: boolean }[] = [];
  if (value !== null && typeof value === "object") stack.push({ holder: value as Record<string, unknown>, asText: false });
  let root = true;
  while (stack.length > 0) {
    const { holder, asText } = stack.pop()!;
    const atRoot = root;
    root = false;
    const visit = (v: unknown, key: string | number, set: (x: unknown) => void) => {
      if (v instanceof WideInteger) set(asText || (atRoot && key === "properties") ? v.text : v.value);
      else if (v !== null && typeof v === "object") stack.push({ holder: v as Record<string, unknown>, asText: asText || (atRoot && key === "properties") });
    };
    if (Array.isArray(holder)) for (let i = 0; i < holder.length; i++) visit(holder[i], i, (x) => (holder[i] = x));
    else for (const key of Object.keys(holder)) visit(holder[key], key, (x) => (holder[key] = x));
  }
  return value;
}
