import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HILBERT_BITS, NO_BBOX_KEY, hilbertIndex, hilbertKeyOfBbox, hilbertKeyOfLonLat } from "./hilbert";

/**
 * The order-k Hilbert curve walked cell by cell with a turtle following the L-system
 * A -> +BF-AFA-FB+, B -> -AF+BFB+FA- (F forward, + left, - right), starting in (0, 0) heading
 * east: an independent construction of the curve to compare the bit-twiddling index with.
 */
function turtleCurve(k: number): Array<[number, number]> {
  const cells: Array<[number, number]> = [[0, 0]];
  const dx = [1, 0, -1, 0];
  const dy = [0, 1, 0, -1];
  let x = 0;
  let y = 0;
  let dir = 0;
  const expand = (symbol: string, depth: number) => {
    if (depth === 0) return;
    for (const ch of symbol === "A" ? "+BF-AFA-FB+" : "-AF+BFB+FA-") {
      if (ch === "+") dir = (dir + 1) % 4;
      else if (ch === "-") dir = (dir + 3) % 4;
      else if (ch === "F") {
        x += dx[dir];
        y += dy[dir];
        cells.push([x, y]);
      } else expand(ch, depth - 1);
    }
  };
  expand("A", k);
  return cells;
}

/** Index of cell (x, y) of an order-k grid on the 16-bit curve: the cell's lower-left corner scaled up. */
const coarseIndex = (k: number, x: number, y: number) => hilbertIndex(x << (HILBERT_BITS - k), y << (HILBERT_BITS - k));

describe("hilbertIndex", () => {
  it("orders every cell of small grids exactly as the turtle walks them", () => {
    for (let k = 1; k <= 6; k++) {
      const walk = turtleCurve(k);
      expect(walk).toHaveLength(4 ** k);
      const byIndex = [...walk].sort((a, b) => coarseIndex(k, ...a) - coarseIndex(k, ...b));
      expect(byIndex).toEqual(walk);
    }
  });

  it("sorts any set of cells of a small grid in the turtle's order (property)", () => {
    const cells = fc
      .integer({ min: 1, max: 7 })
      .chain((k) =>
        fc.tuple(fc.constant(k), fc.uniqueArray(fc.tuple(fc.nat((1 << k) - 1), fc.nat((1 << k) - 1)), { selector: ([x, y]) => `${x},${y}`, maxLength: 60 })),
      );
    const walks = new Map<number, Map<string, number>>();
    const positionIn = (k: number) => {
      if (!walks.has(k)) walks.set(k, new Map(turtleCurve(k).map(([x, y], i) => [`${x},${y}`, i])));
      return walks.get(k)!;
    };
    fc.assert(
      fc.property(cells, ([k, list]) => {
        const position = positionIn(k);
        const byBrute = [...list].sort((a, b) => position.get(`${a[0]},${a[1]}`)! - position.get(`${b[0]},${b[1]}`)!);
        const byIndex = [...list].sort((a, b) => coarseIndex(k, ...a) - coarseIndex(k, ...b));
        expect(byIndex).toEqual(byBrute);
      }),
    );
  });

  it("is a permutation of 0 .. 4^8 - 1 on the 256 x 256 grid (each coarse cell is one block of the fine curve)", () => {
    const k = 8;
    const seen = new Uint8Array(4 ** k);
    for (let x = 0; x < 1 << k; x++) {
      for (let y = 0; y < 1 << k; y++) {
        seen[Math.floor(coarseIndex(k, x, y) / 4 ** (HILBERT_BITS - k))]++;
      }
    }
    expect(seen.every((n) => n === 1)).toBe(true);
  });

  it("keeps near points near: the next index along the curve is always a 4-neighbour cell (property, full 16-bit grid)", () => {
    const max = (1 << HILBERT_BITS) - 1;
    fc.assert(
      fc.property(fc.nat(max), fc.nat(max), (x, y) => {
        const d = hilbertIndex(x, y);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(2 ** 32);
        const neighbours = [
          [x + 1, y],
          [x - 1, y],
          [x, y + 1],
          [x, y - 1],
        ].filter(([a, b]) => a >= 0 && b >= 0 && a <= max && b <= max);
        const next = neighbours.filter(([a, b]) => hilbertIndex(a, b) === d + 1);
        expect(next).toHaveLength(d === 2 ** 32 - 1 ? 0 : 1);
      }),
    );
  });

  it("is injective on the full grid (property)", () => {
    const cell = fc.tuple(fc.nat(65535), fc.nat(65535));
    fc.assert(
      fc.property(cell, cell, (a, b) => {
        fc.pre(a[0] !== b[0] || a[1] !== b[1]);
        expect(hilbertIndex(...a)).not.toBe(hilbertIndex(...b));
      }),
    );
  });
});

describe("hilbertKeyOfLonLat / hilbertKeyOfBbox", () => {
  it("maps the corners of the world to the curve's ends, clamping outside values", () => {
    // the curve starts in the south-west cell and ends in the south-east one
    expect(hilbertKeyOfLonLat(-180, -90)).toBe(0);
    expect(hilbertKeyOfLonLat(180, -90)).toBe(2 ** 32 - 1);
    expect(hilbertKeyOfLonLat(-500, -100)).toBe(0);
    expect(hilbertKeyOfLonLat(179.99999, -89.99999)).toBe(2 ** 32 - 1);
    // one cell is 360 / 65536 degrees wide: two points in one cell share the key
    expect(hilbertKeyOfLonLat(2.3522, 48.8566)).toBe(hilbertKeyOfLonLat(2.3522 + 1e-4, 48.8566 + 1e-4));
  });

  it("keys a bbox by its centre and puts missing bboxes after every real key", () => {
    expect(hilbertKeyOfBbox([0, 10, 2, 20])).toBe(hilbertKeyOfLonLat(1, 15));
    expect(hilbertKeyOfBbox(null)).toBe(NO_BBOX_KEY);
    expect(NO_BBOX_KEY).toBeGreaterThan(hilbertKeyOfLonLat(180, -90));
  });
});
