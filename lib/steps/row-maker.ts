/**
 * Row makers: `pick` (lib/steps/items.ts) compiled for one fixed list of field specs, for
 * steps that build many rows of the same shape (distance_pairs, select, to_table).
 *
 * `rowMaker(a, b, extra)` returns `make(pa, pb, x)`, which gives the same row as
 * `pick(pb, b, pick(pa, a))` followed by `row[extra] = x`: keys in first-written order, the last
 * write of a key winning, a missing field (undefined) as null. The maker is one object literal
 * with constant keys (built with `new Function`, each key and field name a JSON string literal,
 * so any text is a safe name), so every row gets the same hidden class with its fields in the
 * object itself. `pick` adds keys one by one through a keyed store that every step shares: on
 * the 242,168 rows of a nearby-cities run (5,000 places at 30 km) that took 1.3 s; the maker
 * takes ~0.13 s (in-process, same machine).
 *
 * A spec that writes the key `__proto__` would set the prototype in a literal: such lists get an
 * interpreted maker (plain `pick`), which behaves as before. Makers are cached by their specs
 * (`CACHE_MAX` at most), so a worker compiles the few shapes its flows use once.
 */
import { pick } from "@/lib/steps/items";
import { specAs, specFrom, type TFieldSpec } from "@/lib/steps/options";
import type { TRow } from "@/lib/steps/dataset";

export type TRowMaker = (a: Record<string, unknown>, b?: Record<string, unknown>, extra?: unknown) => TRow;

/** Compiled shapes kept; past that the cache starts over (flows use a handful of shapes). */
const CACHE_MAX = 256;
const cache = new Map<string, { make: TRowMaker; fill: TRowFiller | null }>();

/** The maker and the filler of one list of specs, compiled once (see `compile`). */
function shape(a: readonly TFieldSpec[], b: readonly TFieldSpec[], extra: string | undefined): { make: TRowMaker; fill: TRowFiller | null } {
  const cacheKey = JSON.stringify([a, b, extra ?? null]);
  let made = cache.get(cacheKey);
  if (!made) {
    made = compile(a, b, extra);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(cacheKey, made);
  }
  return made;
}

/**
 * A maker of rows with the fields `a` of its first argument, then the fields `b` of its second,
 * then `extra` (a key) set to its third; see the module doc.
 */
export function rowMaker(a: readonly TFieldSpec[], b: readonly TFieldSpec[] = [], extra?: string): TRowMaker {
  return shape(a, b, extra).make;
}

/** Where a row field's value comes from: `arg[field] ?? null` of the first (`a`) or second (`b`) argument, or the third (`x`) itself. */
export type TFieldSource = { arg: "a" | "b"; field: string } | { arg: "x" };

/**
 * Key -> the source of its last write (of `a`, `b`, `x`); a Map keeps the order of first
 * writes, as an object does. The rows of `rowMaker(a, b, extra)` are exactly these: `key` holds
 * `pa[field] ?? null`, `pb[field] ?? null` or `x`.
 */
export function fieldSources(a: readonly TFieldSpec[], b: readonly TFieldSpec[] = [], extra?: string): Map<string, TFieldSource> {
  const fields = new Map<string, TFieldSource>();
  for (const s of a) fields.set(specAs(s), { arg: "a", field: specFrom(s) });
  for (const s of b) fields.set(specAs(s), { arg: "b", field: specFrom(s) });
  if (extra !== undefined) fields.set(extra, { arg: "x" });
  return fields;
}

/** Key -> the expression of its last write (see `fieldSources`). */
function fieldExpressions(a: readonly TFieldSpec[], b: readonly TFieldSpec[], extra: string | undefined): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [key, src] of fieldSources(a, b, extra)) fields.set(key, src.arg === "x" ? "x" : `${src.arg}[${JSON.stringify(src.field)}] ?? null`);
  return fields;
}

/** Refills a row made by the same specs' `rowMaker` with the fields of other arguments, in place; returns it. */
export type TRowFiller = (row: TRow, a: Record<string, unknown>, b: Record<string, unknown> | undefined, extra: unknown) => TRow;

/**
 * The in-place twin of `rowMaker(a, b, extra)`: `fill(row, pa, pb, x)` sets every field of a row
 * that maker made to what `make(pa, pb, x)` would hold (the same expressions, one constant-key
 * store each, so the row keeps its keys, their order and its hidden class), making no object.
 * For a reader that is done with a row before the next (the result writers, through
 * `TRowSource.view`), one row serves them all. Null where the maker is the interpreted one
 * (`__proto__`).
 */
export function rowFiller(a: readonly TFieldSpec[], b: readonly TFieldSpec[] = [], extra?: string): TRowFiller | null {
  return shape(a, b, extra).fill;
}

/** The object literal that makes a row, and the stores that refill one, from the same expressions. */
function compile(a: readonly TFieldSpec[], b: readonly TFieldSpec[], extra: string | undefined): { make: TRowMaker; fill: TRowFiller | null } {
  const fields = fieldExpressions(a, b, extra);
  if (fields.has("__proto__")) {
    const make: TRowMaker = (pa, pb, x) => {
      const row = pick(pb ?? {}, b, pick(pa, a));
      if (extra !== undefined) row[extra] = x;
      return row;
    };
    return { make, fill: null };
  }
  const literal = [...fields].map(([key, expr]) => `${JSON.stringify(key)}: ${expr}`).join(", ");
  const stores = [...fields].map(([key, expr]) => `row[${JSON.stringify(key)}] = ${expr};`).join(" ");
  return {
    make: new Function("a", "b", "x", `"use strict"; return { ${literal} };`) as TRowMaker,
    fill: new Function("row", "a", "b", "x", `"use strict"; ${stores} return row;`) as TRowFiller,
  };
}
