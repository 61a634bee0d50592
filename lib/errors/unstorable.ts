/**
 * Values Postgres cannot store, found at the door instead of failing as a 500 deep inside a
 * query: `text` and `jsonb` refuse the NUL character (U+0000: "unsupported Unicode escape
 * sequence" / "invalid byte sequence for encoding UTF8: 0x00"), and a string with an unpaired
 * UTF-16 surrogate (U+D800..U+DFFF alone) has no UTF-8 encoding (RFC 3629 section 3); JSON
 * nested thousands of levels deep exhausts the stack of recursive code (Postgres's jsonb
 * parser answers "stack depth limit exceeded"; so does recursive JavaScript).
 *
 * Every door calls this on the parsed caller input: the HTTP JSON body (lib/http/read-json-body.ts),
 * MCP tool arguments (lib/mcp/server.ts), server actions (lib/auth/action-client.ts), and a layer
 * upload's id and name (lib/layers/stage-upload.ts); the upload parsers check each row's or
 * feature's properties themselves, naming the feature or row (lib/layers/parse/values.ts).
 * Strings are checked as values and as object keys; the walk is iterative, so no depth of
 * nesting can overflow the stack while checking.
 */
import { AppError, validationError } from "@/lib/errors/app-error";
import { jsonPointer } from "@/lib/errors/field-error";

/**
 * Deepest nesting of arrays and objects accepted in caller JSON: the outermost object or
 * array is level 1. A run request with a GeoJSON MultiPolygon needs about 12; 64 leaves room
 * for GeometryCollections and nested properties.
 */
export const MAX_JSON_DEPTH = 64;

/** Why a value cannot be stored. */
export type TUnstorableReason = "nul_character" | "unpaired_surrogate" | "too_deep";

/** Where (path of keys and indexes) and why. */
export interface TUnstorable {
  path: (string | number)[];
  reason: TUnstorableReason;
}

/** The reason a string cannot be stored, or null when it can. */
export function unstorableStringReason(s: string): Exclude<TUnstorableReason, "too_deep"> | null {
  if (s.includes("\u0000")) return "nul_character";
  if (!s.isWellFormed()) return "unpaired_surrogate";
  return null;
}

interface TFrame {
  value: unknown;
  key: string | number | null;
  parent: TFrame | null;
  depth: number;
}

function pathOf(frame: TFrame | null, last?: string | number): (string | number)[] {
  const path: (string | number)[] = last === undefined ? [] : [last];
  for (let f = frame; f && f.key !== null; f = f.parent) path.push(f.key);
  return path.reverse();
}

/**
 * The first place in `value` (depth first, in key order) that Postgres cannot store: a string
 * or an object key with a NUL character or an unpaired surrogate, or an array or object nested
 * deeper than `maxDepth`. Null when there is none. `value` is a parsed JSON value (objects,
 * arrays, strings, numbers, booleans, null; anything else is not looked into). O(size of
 * value), iterative.
 */
export function findUnstorableString(value: unknown, maxDepth = MAX_JSON_DEPTH): TUnstorable | null {
  const stack: TFrame[] = [{ value, key: null, parent: null, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v === "string") {
      const reason = unstorableStringReason(v);
      if (reason) return { path: pathOf(frame), reason };
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    const depth = frame.depth + 1;
    if (depth > maxDepth) return { path: pathOf(frame), reason: "too_deep" };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: frame, depth });
      continue;
    }
    const keys = Object.keys(v);
    for (const k of keys) {
      const reason = unstorableStringReason(k);
      if (reason) return { path: pathOf(frame, k), reason };
    }
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (v as Record<string, unknown>)[keys[i]!], key: keys[i]!, parent: frame, depth });
  }
  return null;
}

const MESSAGES: Record<Exclude<TUnstorableReason, "too_deep">, string> = {
  nul_character: "Contains a NUL character (\\u0000), which cannot be stored; remove it.",
  unpaired_surrogate: "Contains an unpaired UTF-16 surrogate (a lone \\uD800-\\uDFFF escape), which is not valid Unicode; send well-formed text.",
};

/**
 * Throws when `value` holds something Postgres cannot store (see `findUnstorableString`):
 * `validation_failed` (422) naming the string by JSON Pointer, prefixed with `prefix` (the
 * location of `value` in the request, e.g. `["inputs", "places"]`), code `nul_character` or
 * `unpaired_surrogate`; `bad_request` (400) for nesting deeper than `MAX_JSON_DEPTH`.
 */
export function assertStorable(value: unknown, prefix: readonly (string | number)[] = []): void {
  const found = findUnstorableString(value);
  if (!found) return;
  const field = jsonPointer([...prefix, ...found.path]);
  if (found.reason === "too_deep") {
    throw new AppError(
      "bad_request",
      `The JSON nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (at ${field || "/"}); at most ${MAX_JSON_DEPTH} are accepted.`,
    );
  }
  throw validationError([{ field, code: found.reason, message: MESSAGES[found.reason] }]);
}
