import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "@/lib/errors";
import { ProblemList } from "./problems";
import { checkValues, type TValuesPlace } from "./values";

const FEATURE: TValuesPlace = { pointer: "/file/features/3/properties", label: "Feature 3", noun: "property" };

/** The field errors `checkValues` lists for `values` (and whether it said they were fine). */
function problemsOf(values: Record<string, unknown>, place = FEATURE) {
  const problems = new ProblemList("The file");
  const ok = checkValues(values, place, problems);
  let errors: unknown[] = [];
  try {
    problems.throwIfAny();
  } catch (e) {
    errors = (e as { errors: unknown[] }).errors;
  }
  return { ok, errors };
}

/** `{n: {n: ... {v: 1}}}` with `levels` objects in all, counting the outermost. */
const nested = (levels: number): Record<string, unknown> => {
  let v: Record<string, unknown> = { v: 1 };
  for (let i = 1; i < levels; i++) v = { n: v };
  return v;
};

describe("checkValues", () => {
  it("passes ordinary values, and leaves what a reader decoded (dates, bigints, bytes) alone", () => {
    expect(
      problemsOf({
        name: "Zürich 🗺️",
        n: -1.5e-7,
        big: 1e308,
        ok: true,
        none: null,
        list: [1, "二", { deep: [] }],
        when: new Date(0),
        id: 5n,
        raw: new Uint8Array([0]),
      }),
    ).toEqual({ ok: true, errors: [] });
  });

  it("names a NUL or an unpaired surrogate in a value or a key, nested ones by their path; a key's NUL is written as its escape", () => {
    const { ok, errors } = problemsOf({ name: "a\u0000b", "k\u0000": 1, list: [{ "x/y": "\uD800" }] });
    expect(ok).toBe(false);
    expect(errors).toEqual([
      {
        field: "/file/features/3/properties/k\\u0000",
        code: "nul_character",
        message: 'Feature 3, property "k\\u0000": the name contains a NUL character (\\u0000), which cannot be stored; rename it.',
      },
      {
        field: "/file/features/3/properties/name",
        code: "nul_character",
        message: 'Feature 3, property "name": the text contains a NUL character (\\u0000), which cannot be stored; remove it.',
      },
      {
        field: "/file/features/3/properties/list/0/x~1y",
        code: "unpaired_surrogate",
        message:
          'Feature 3, property "list" at /0/x~1y: the text contains an unpaired UTF-16 surrogate (a lone \\uD800-\\uDFFF escape), which is not valid Unicode; remove it.',
      },
    ]);
    // What is stored holds neither NUL nor a lone surrogate.
    const texts = (errors as { field: string; message: string }[]).flatMap((e) => [e.field, e.message]);
    expect(texts.filter((t) => t.includes("\u0000") || !t.isWellFormed())).toEqual([]);
  });

  it("refuses numbers that are not finite, naming the row and column", () => {
    const row: TValuesPlace = { pointer: "/file/features/0/properties", label: "Row 1", noun: "column" };
    expect(problemsOf({ a: Infinity, b: [-Infinity], c: NaN }, row).errors).toEqual([
      {
        field: "/file/features/0/properties/a",
        code: "invalid_number",
        message:
          'Row 1, column "a": Infinity is not a finite number (a number too large for a 64-bit double, such as 1e400, reads as Infinity); write it as text or in other units.',
      },
      {
        field: "/file/features/0/properties/b/0",
        code: "invalid_number",
        message:
          'Row 1, column "b" at /0: -Infinity is not a finite number (a number too large for a 64-bit double, such as 1e400, reads as -Infinity); write it as text or in other units.',
      },
      { field: "/file/features/0/properties/c", code: "invalid_number", message: 'Row 1, column "c": NaN is not a number; write a missing value as null.' },
    ]);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting (the values object is the first) and names the container past them`, () => {
    expect(problemsOf({ deep: nested(MAX_JSON_DEPTH - 1) })).toEqual({ ok: true, errors: [] });
    const { ok, errors } = problemsOf({ deep: nested(MAX_JSON_DEPTH) });
    expect(ok).toBe(false);
    expect(errors).toEqual([
      {
        field: `/file/features/3/properties/deep${"/n".repeat(MAX_JSON_DEPTH - 1)}`,
        code: "too_deep",
        message: `Feature 3, property "deep" at ${"/n".repeat(MAX_JSON_DEPTH - 1)}: nests arrays and objects more than 64 levels deep; at most 64 are accepted.`,
      },
    ]);
    // Any depth is walked without recursion.
    expect(problemsOf({ deep: nested(100_000) }).errors).toHaveLength(1);
  });
});
