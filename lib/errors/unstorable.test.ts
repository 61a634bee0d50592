import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { AppError } from "./app-error";
import { MAX_JSON_DEPTH, assertStorable, findUnstorableString } from "./unstorable";

/** Independent oracle: recursive, with the reasons spelled as regular expressions over UTF-16 code units. */
function oracle(v: unknown, path: (string | number)[] = [], depth = 0): { path: (string | number)[]; reason: string } | null {
  const bad = (s: string) =>
    /\u0000/.test(s) ? "nul_character" : /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s) ? "unpaired_surrogate" : null;
  if (typeof v === "string") {
    const reason = bad(v);
    return reason ? { path, reason } : null;
  }
  if (v === null || typeof v !== "object") return null;
  if (depth + 1 > MAX_JSON_DEPTH) return { path, reason: "too_deep" };
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = oracle(v[i], [...path, i], depth + 1);
      if (r) return r;
    }
    return null;
  }
  for (const k of Object.keys(v)) {
    const reason = bad(k);
    if (reason) return { path: [...path, k], reason };
  }
  for (const [k, x] of Object.entries(v)) {
    const r = oracle(x, [...path, k], depth + 1);
    if (r) return r;
  }
  return null;
}

function nested(levels: number, inner: unknown = 1): unknown {
  let v = inner;
  for (let i = 1; i < levels; i++) v = [v];
  return levels === 0 ? inner : [v];
}

describe("findUnstorableString", () => {
  it("names a NUL or a lone surrogate in a string or a key by JSON Pointer", () => {
    expect(findUnstorableString({ inputs: { places: { rows: [{ name: "ok" }, { name: "a\u0000b" }] } } })).toEqual({
      path: ["inputs", "places", "rows", 1, "name"],
      reason: "nul_character",
    });
    expect(findUnstorableString({ features: [{ properties: { "x\uD800": 1 } }] })?.path).toEqual(["features", 0, "properties", "x\uD800"]);
    expect(findUnstorableString({ "a/b": ["\uDC00"] })).toEqual({ path: ["a/b", 0], reason: "unpaired_surrogate" });
    expect(findUnstorableString({ name: "Zürich 🗺️", id: "layer-1", n: 3, ok: true, none: null })).toBeNull();
  });
  it("accepts nesting up to the limit and refuses one level more, at any depth without overflowing the stack", () => {
    expect(findUnstorableString(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(findUnstorableString(nested(MAX_JSON_DEPTH + 1))?.reason).toBe("too_deep");
    expect(findUnstorableString(nested(MAX_JSON_DEPTH + 1))?.path).toHaveLength(MAX_JSON_DEPTH);
    const deep = JSON.parse("[".repeat(200_000) + "]".repeat(200_000)) as unknown;
    expect(findUnstorableString(deep)?.reason).toBe("too_deep");
    expect(findUnstorableString(deep, Infinity)).toBeNull();
  });
  it("finds what a recursive check finds, on random JSON with arbitrary UTF-16 strings", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "\u0000", "\uD83D", "\uDE00", "é", "/", "~"), maxLength: 6 });
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, text, fc.integer(), fc.constant(null), tie("array"), tie("object")),
      array: fc.array(tie("value"), { maxLength: 4 }),
      object: fc.dictionary(text, tie("value"), { maxKeys: 4 }),
    })).value;
    fc.assert(
      fc.property(json, (v) => {
        const found = findUnstorableString(v);
        const expected = oracle(v);
        expect(found && { path: found.path, reason: found.reason }).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("assertStorable", () => {
  it("throws a 422 field error under the given prefix, and a 400 for nesting", () => {
    const err = (() => {
      try {
        assertStorable({ rows: [{ city: "Bern\u0000" }] }, ["inputs", "places"]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "validation_failed", errors: [{ field: "/inputs/places/rows/0/city", code: "nul_character" }] });
    expect(() => assertStorable(nested(MAX_JSON_DEPTH + 1))).toThrow(expect.objectContaining({ code: "bad_request" }));
    expect(() => assertStorable({ name: "fine" })).not.toThrow();
  });
});
