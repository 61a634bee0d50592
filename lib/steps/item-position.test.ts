/** A feature's layer position (lib/steps/dataset.ts): kept on the object, seen by nothing that reads its members; and the layer order of positions. */
import v8 from "node:v8";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { carryItemPosition, itemPosition, layerOrder, setItemPosition } from "@/lib/steps/dataset";
import { withProps } from "@/lib/steps/items";
import { pt } from "@/lib/steps/test-helpers";

describe("item position", () => {
  it("is invisible to JSON, keys, spreads, clones and equality, and carried to derived features", () => {
    const f = pt(8.5, 47.4, { name: "Zürich" });
    const plain = pt(8.5, 47.4, { name: "Zürich" });
    setItemPosition(f, 42);
    expect(itemPosition(f)).toBe(42);
    expect(itemPosition(plain)).toBeUndefined();
    expect(JSON.stringify(f)).toBe(JSON.stringify(plain));
    expect(Object.keys(f)).toEqual(Object.keys(plain));
    expect(Object.getOwnPropertySymbols(f)).toEqual([]);
    expect(itemPosition({ ...f })).toBeUndefined();
    expect(itemPosition(structuredClone(f))).toBeUndefined();
    expect(v8.serialize(f)).toEqual(v8.serialize(plain));
    expect(f).toStrictEqual(plain);

    const derived = withProps(f, { n: 1 });
    expect(itemPosition(derived)).toBe(42);
    const other = pt(0, 0, {});
    carryItemPosition(plain, other);
    expect(itemPosition(other)).toBeUndefined();
  });

  it("can be set again", () => {
    const f = pt(0, 0, {});
    setItemPosition(f, 1);
    setItemPosition(f, 7);
    expect(itemPosition(f)).toBe(7);
  });
});

describe("layerOrder", () => {
  /** The order by definition: by position, equal positions in index order. */
  const byComparator = (positions: number[]) => positions.map((_, i) => i).sort((a, b) => positions[a]! - positions[b]! || a - b);

  it("orders indexes by position, equal positions in index order (packed keys)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 29 - 1 }), { maxLength: 200 }), fc.array(fc.nat(5), { maxLength: 50 }), (spread, dense) => {
        for (const positions of [spread, dense]) {
          expect([...layerOrder(Float64Array.from(positions))]).toEqual(byComparator(positions));
          // sorted in the positions' own array, which it returns
          const own = Float64Array.from(positions);
          const order = layerOrder(own, own);
          expect(order).toBe(own);
          expect([...order]).toEqual(byComparator(positions));
        }
      }),
    );
  });

  it("orders positions a key cannot hold (too large, fractional) by comparing them", () => {
    for (const positions of [
      [2 ** 29, 3, 2 ** 40, 3, 0],
      [1.5, 0.5, 1.5, -1],
    ]) {
      expect([...layerOrder(Float64Array.from(positions))]).toEqual(byComparator(positions));
      const own = Float64Array.from(positions);
      expect([...layerOrder(own, own)]).toEqual(byComparator(positions));
    }
  });
});
