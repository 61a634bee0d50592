/**
 * The values of one uploaded item checked before they are stored: a GeoJSON feature's
 * `properties` (GeoJSON, GeoJSON Text Sequences) or a GeoParquet row's columns, as a parsed
 * object of JSON-like values (plain objects and arrays are looked into; strings, numbers,
 * booleans, null, and anything else a reader decodes, such as Dates, bigints or bytes, are
 * leaves). A fault is listed in the upload's ProblemList, named by the item and the key:
 *
 * - a string or a key with a NUL character or an unpaired UTF-16 surrogate: code
 *   `nul_character` / `unpaired_surrogate`, as every door refuses them (lib/errors/unstorable.ts:
 *   Postgres stores a layer's column names, and a value must survive as text);
 * - arrays and objects nested more than `MAX_JSON_DEPTH` (64) levels, the values object being
 *   level 1: code `too_deep`, at the container that passes the limit (nothing deeper is read);
 * - a number that is not finite (NaN, ±Infinity; `1e400` in JSON reads as Infinity): code
 *   `invalid_number`. A layer file could hold it, but JSON cannot: previews and results would show
 *   null, and sums would skip it.
 *
 * Fields are the item's pointer followed by the path (RFC 6901):
 * `/file/features/3/properties/name`, `/file/features/3/properties/a/b/0`; messages start with
 * the item's label and the top-level key (`Feature 3, property "name": ...`, `Row 4, column
 * "d": ...`). A key that cannot be stored is written in the field and the message with its JSON
 * escape (`\u0000`), since both are stored (ProblemList).
 */
import { jsonPointer, MAX_JSON_DEPTH, unstorableStringReason } from "@/lib/errors";
import type { ProblemList } from "./problems";

/** Where an item's values are, for the problems found in them. */
export interface TValuesPlace {
  /** JSON Pointer of the values object in the upload: `/file/features/3/properties`. */
  pointer: string;
  /** The item in messages: "Feature 3", "Row 4". */
  label: string;
  /** What a top-level key is called in messages: "property" (GeoJSON) or "column" (GeoParquet). */
  noun: "property" | "column";
}

const UNSTORABLE = {
  nul_character: "contains a NUL character (\\u0000), which cannot be stored",
  unpaired_surrogate: "contains an unpaired UTF-16 surrogate (a lone \\uD800-\\uDFFF escape), which is not valid Unicode",
} as const;

const isPlainObject = (v: object): v is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

interface TFrame {
  value: unknown;
  path: (string | number)[];
  /** Nesting level of `value` were it an array or object (the values object is 1). */
  depth: number;
}

/** Keys already found storable (items of one upload share their keys); bounded. */
const storableKeys = new Set<string>();
const STORABLE_KEYS_MAX = 10_000;

/**
 * Whether every value of `values` is a storable string, a finite number, a boolean or null
 * under a storable key: the common item, checked without allocating (an import checks
 * millions; walking each through frames and paths made the GeoParquet parse 60% slower).
 */
function flatAndFine(values: Record<string, unknown>): boolean {
  for (const key of Object.keys(values)) {
    if (!storableKeys.has(key)) {
      if (unstorableStringReason(key)) return false;
      if (storableKeys.size < STORABLE_KEYS_MAX) storableKeys.add(key);
    }
    const v = values[key];
    if (typeof v === "string") {
      if (unstorableStringReason(v)) return false;
    } else if (typeof v === "number") {
      if (!Number.isFinite(v)) return false;
    } else if (v !== null && typeof v === "object" && (Array.isArray(v) || isPlainObject(v))) return false;
  }
  return true;
}

/**
 * Checks `values` (see module doc), adding each fault to `problems`. Returns true when there
 * was none. O(size of the values), iterative (no nesting can overflow the stack).
 */
export function checkValues(values: Record<string, unknown>, place: TValuesPlace, problems: ProblemList): boolean {
  if (flatAndFine(values)) return true;
  let ok = true;
  const add = (path: (string | number)[], code: string, what: string) => {
    ok = false;
    const key = `${place.noun} ${JSON.stringify(path[0])}`;
    const inside = path.length > 1 ? ` at ${jsonPointer(path.slice(1))}` : "";
    // ProblemList writes what cannot be stored (a NUL in a key) as its JSON escape.
    problems.add({
      field: place.pointer + jsonPointer(path),
      code,
      message: `${place.label}, ${key}${inside}: ${what}`,
    });
  };
  const stack: TFrame[] = [{ value: values, path: [], depth: 1 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === "string") {
      const reason = unstorableStringReason(value);
      if (reason) add(path, reason, `the text ${UNSTORABLE[reason]}; remove it.`);
    } else if (typeof value === "number") {
      if (!Number.isFinite(value))
        add(
          path,
          "invalid_number",
          Number.isNaN(value)
            ? "NaN is not a number; write a missing value as null."
            : `${value} is not a finite number (a number too large for a 64-bit double, such as 1e400, reads as ${value}); write it as text or in other units.`,
        );
    } else if (value !== null && typeof value === "object" && (Array.isArray(value) || isPlainObject(value))) {
      if (depth > MAX_JSON_DEPTH) {
        add(path, "too_deep", `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} are accepted.`);
        continue;
      }
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i], depth: depth + 1 });
        continue;
      }
      const keys = Object.keys(value);
      for (const k of keys) {
        const reason = unstorableStringReason(k);
        if (reason) add([...path, k], reason, `the name ${UNSTORABLE[reason]}; rename it.`);
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        if (!unstorableStringReason(k)) stack.push({ value: value[k], path: [...path, k], depth: depth + 1 });
      }
    }
  }
  return ok;
}
