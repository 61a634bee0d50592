import { describe, expect, it } from "vitest";
import { distance } from "@turf/turf";
import type { Polygon } from "geojson";
import { box, pt } from "@/lib/steps/test-helpers";
import { geometryIndex, haversineKm, nearestWithinKm, pointIndex, pointsWithinKm, someEntryAt } from "./spatial-index";
import type { TFeature } from "@/lib/steps/dataset";

function rng(seed: number): () => number {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
}

describe("haversineKm", () => {
  it("is Turf distance to the last bit", () => {
    const r = rng(3);
    for (let i = 0; i < 2000; i++) {
      const a = [r() * 360 - 180, r() * 180 - 90];
      const b = [r() * 360 - 180, r() * 180 - 90];
      expect(haversineKm(a[0]!, a[1]!, b[0]!, b[1]!)).toBe(distance(a, b));
    }
    // differences of exactly ±360 degrees and beyond (Turf reduces them with % 360), and -0
    for (const [a, b] of [
      [
        [180, 0],
        [-180, 0],
      ],
      [
        [-180, 10],
        [180, -10],
      ],
      [
        [540, 1],
        [-200, 2],
      ],
      [
        [-0, -0],
        [0, 0],
      ],
    ] as [number[], number[]][]) {
      expect(haversineKm(a[0]!, a[1]!, b[0]!, b[1]!)).toBe(distance(a, b));
      if (Math.abs(a[0]!) > 180) continue; // not a longitude an index is queried with
      const near = pointsWithinKm(pointIndex([pt(b[0]!, b[1]!)]), a, 20_000);
      expect([...near.km]).toEqual([distance(a, b)]);
    }
  });
});

describe("pointsWithinKm / nearestWithinKm", () => {
  const r = rng(5);
  const targets: TFeature[] = [];
  for (let i = 0; i < 3000; i++) targets.push(pt(r() * 360 - 180, r() * 180 - 90, { i }));
  // clusters at the antimeridian and near the poles
  for (let i = 0; i < 300; i++) targets.push(pt(i % 2 ? 179.9 + r() * 0.1 : -180 + r() * 0.1, r() * 2 - 1, { i: 3000 + i }));
  for (let i = 0; i < 300; i++) targets.push(pt(r() * 360 - 180, 89 + r(), { i: 3300 + i }));
  targets.push({ type: "Feature", geometry: null, properties: { i: -1 } });
  const idx = pointIndex(targets);

  const brute = (lon: number, lat: number, km: number) =>
    targets
      .map((t, feature) => ({ feature, km: t.geometry ? distance([lon, lat], (t.geometry as any).coordinates) : Infinity }))
      .filter((x) => x.km <= km)
      .sort((a, b) => a.km - b.km || a.feature - b.feature);

  it.each([
    ["antimeridian east", 179.95, 0, 50],
    ["antimeridian west", -179.99, 0.5, 120],
    ["north pole", 10, 89.9, 300],
    ["south", 0, -89.5, 2000],
    ["equator", 0, 0, 1500],
    ["anywhere, huge radius", 33, 12, 15000],
    ["nothing near", 0, 0, 0.001],
  ])("equals a brute-force loop: %s", (_n, lon, lat, km) => {
    const got = pointsWithinKm(idx, [lon as number, lat as number], km as number);
    const want = brute(lon as number, lat as number, km as number);
    expect([...got.feature]).toEqual(want.map((w) => w.feature));
    expect([...got.km]).toEqual(want.map((w) => w.km));
    const n = nearestWithinKm(pointIndex(targets), [lon as number, lat as number], km as number);
    expect(n).toEqual(want[0] ?? null);
  });

  it("orders equal distances by feature index, in short lists and in long ones", () => {
    for (const copies of [5, 40, 200]) {
      // `copies` points stacked at each of two places, interleaved in the array
      const stacked = Array.from({ length: 2 * copies }, (_, i) => (i % 2 ? pt(0.1, 0) : pt(0, 0.05)));
      const got = pointsWithinKm(pointIndex(stacked), [0, 0], 50);
      const near = stacked.map((_, i) => i).filter((i) => i % 2 === 0);
      const far = stacked.map((_, i) => i).filter((i) => i % 2 === 1);
      expect([...got.feature]).toEqual([...near, ...far]);
      expect(got.km[0]).toBe(distance([0, 0], [0, 0.05]));
      expect(got.km[2 * copies - 1]).toBe(distance([0, 0], [0.1, 0]));
    }
  });

  it("finds the exact radius boundary and returns nothing for an empty index", () => {
    const two = [pt(0, 0), pt(0.2, 0)];
    const d = distance([0, 0], [0.2, 0]);
    expect([...pointsWithinKm(pointIndex(two), [0, 0], d).feature]).toEqual([0, 1]);
    expect([...pointsWithinKm(pointIndex(two), [0, 0], d - 1e-9).feature]).toEqual([0]);
    expect(pointsWithinKm(pointIndex([]), [0, 0], 10).feature.length).toBe(0);
    expect(nearestWithinKm(pointIndex([]), [0, 0], 10)).toBeNull();
  });
});

describe("pointsWithinKm memo", () => {
  it("keeps memoising after earlier queries (earlier runs) spent its budget", () => {
    // 1,000 points in one place: every query returns 1,000 neighbours, so 2,000 queries from
    // fresh position objects (as successive runs make) spend the 2M-neighbour budget.
    const idx = pointIndex(Array.from({ length: 1000 }, (_, i) => pt(8 + i * 1e-6, 47, { i })));
    for (let q = 0; q < 2100; q++) pointsWithinKm(idx, [8, 47], 10);
    const pos = [8, 47];
    const first = pointsWithinKm(idx, pos, 10);
    expect(first.feature).toHaveLength(1000);
    expect(pointsWithinKm(idx, pos, 10)).toBe(first); // the same answer object: memoised
  });
});

describe("someEntryAt", () => {
  /** `n` small squares (a MultiPolygon of two for every third feature), some overlapping. */
  function squares(n: number, r: () => number): TFeature[] {
    return Array.from({ length: n }, (_, i) => {
      const [x, y, s] = [r() * 20, r() * 20, 1 + r() * 4];
      const square = box(x, y, x + s, y + s);
      if (i % 3 !== 0) return square;
      const ring = (dx: number) => (box(x + dx, y, x + dx + s, y + s).geometry as Polygon).coordinates;
      return { ...square, geometry: { type: "MultiPolygon", coordinates: [ring(0), ring(10)] } };
    });
  }

  it("finds the entries whose box holds the point, read box by box (few entries) or through the tree (many)", () => {
    const r = rng(11);
    for (const n of [1, 5, 11, 12, 40]) {
      const gi = geometryIndex(squares(n, r));
      for (let q = 0; q < 300; q++) {
        const [x, y] = [r() * 36 - 2, r() * 26 - 2];
        const inBox = gi.entries
          .map((_, k) => k)
          .filter((k) => x >= gi.boxes[4 * k]! && y >= gi.boxes[4 * k + 1]! && x <= gi.boxes[4 * k + 2]! && y <= gi.boxes[4 * k + 3]!);
        const seen: number[] = [];
        const found = someEntryAt(gi, x, y, (k) => {
          seen.push(k);
          return false;
        });
        expect(found).toBe(false);
        expect(seen.sort((a, b) => a - b)).toEqual(inBox);
        if (inBox.length > 0) expect(someEntryAt(gi, x, y, (k) => k === inBox.at(-1))).toBe(true);
      }
    }
  });
});
