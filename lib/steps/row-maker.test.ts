/** `rowMaker` gives exactly the rows `pick` gives (keys, their order, values), for any field names. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { pick } from "@/lib/steps/items";
import { rowFiller, rowMaker } from "@/lib/steps/row-maker";
import type { TFieldSpec } from "@/lib/steps/options";

/** The rows `pick` builds, as distance_pairs built them before it had a maker. */
function picked(pa: Record<string, unknown>, a: TFieldSpec[], pb: Record<string, unknown>, b: TFieldSpec[], extra: string | undefined, x: unknown) {
  const row = pick(pb, b, pick(pa, a));
  if (extra !== undefined) row[extra] = x;
  return row;
}

const name = fc.oneof(fc.constantFrom("id", "name", "a b", 'quo"te', "back\\slash", "line\u2028sep", "constructor", "0", "x"), fc.string({ minLength: 1 }));
const spec: fc.Arbitrary<TFieldSpec> = fc.oneof(name, fc.record({ from: name, as: name }));
const value = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined));
/** The specs of a maker: fields of its first argument, of its second, and the extra key. */
const shape = fc.tuple(fc.array(spec, { maxLength: 6 }), fc.array(spec, { maxLength: 6 }), fc.option(name, { nil: undefined }));
/** One call's arguments: the two property objects and the extra value. */
const args = fc.tuple(fc.dictionary(name, value), fc.dictionary(name, value), value);

describe("rowMaker", () => {
  it("matches pick on random specs, names and values (order of keys included)", () => {
    fc.assert(
      fc.property(shape, args, ([a, b, extra], [pa, pb, x]) => {
        const made = rowMaker(a, b, extra)(pa, pb, x);
        const expected = picked(pa, a, pb, b, extra, x);
        expect(Object.keys(made)).toEqual(Object.keys(expected));
        expect(made).toEqual(expected);
        expect(Object.getPrototypeOf(made)).toBe(Object.getPrototypeOf(expected));
      }),
      { numRuns: 300 },
    );
  });

  it("a key written twice keeps its first place and its last value; missing fields are null", () => {
    const make = rowMaker([{ from: "id", as: "k" }, "v"], ["w", { from: "id", as: "k" }], "d");
    const row = make({ id: 1, v: undefined }, { id: 2 }, 3.5);
    expect(Object.entries(row)).toEqual([
      ["k", 2],
      ["v", null],
      ["w", null],
      ["d", 3.5],
    ]);
  });

  it("rows of one maker share one shape, and a key named __proto__ behaves as with pick", () => {
    const make = rowMaker(["a"], ["b"]);
    expect(Object.keys(make({ a: 1 }, { b: 2 }))).toEqual(["a", "b"]);
    const proto = rowMaker([{ from: "p", as: "__proto__" }]);
    const parent = { inherited: true };
    expect(Object.getPrototypeOf(proto({ p: parent }))).toBe(Object.getPrototypeOf(pick({ p: parent }, [{ from: "p", as: "__proto__" }])));
  });

  it("rowFiller refills a made row in place to what the maker makes of other arguments (random specs and values)", () => {
    fc.assert(
      fc.property(shape, fc.array(args, { minLength: 1, maxLength: 4 }), ([a, b, extra], calls) => {
        const make = rowMaker(a, b, extra);
        const fill = rowFiller(a, b, extra);
        const hasProto = [...a, ...b].some((s) => (typeof s === "string" ? s : s.as) === "__proto__") || extra === "__proto__";
        if (hasProto) {
          // (not returned: fast-check takes any returned value but true or undefined as a failure)
          expect(fill).toBeNull();
          return;
        }
        const row = make(...calls[0]!);
        for (const [pa, pb, x] of calls) {
          const filled = fill!(row, pa, pb, x);
          expect(filled).toBe(row);
          const expected = make(pa, pb, x);
          expect(Object.keys(filled)).toEqual(Object.keys(expected));
          expect(filled).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});
