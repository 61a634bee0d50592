/** Box math of planning: growing a box by km holds every point within that distance. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { destination } from "@turf/turf";
import { haversineKm } from "@/lib/geo/spatial-index";
import type { TBox } from "@/lib/steps/dataset";
import { boxesMeet, featuresBox, growBoxKm, smallerBox, unionBox } from "@/lib/steps/extent";
import { box, pt } from "@/lib/steps/test-helpers";

const inBox = (b: TBox, lon: number, lat: number) => b[0] <= lon && lon <= b[2] && b[1] <= lat && lat <= b[3];

describe("growBoxKm", () => {
  it("grows latitudes by km / 111 and longitudes by that over the cos of the highest latitude (hand-checked)", () => {
    // 111 km = 1 degree of latitude; the grown box reaches ±1°, cos(1°) = 0.99984770
    const g = growBoxKm([0, 0, 0, 0], 111)!;
    expect(g[1]).toBeCloseTo(-1, 12);
    expect(g[3]).toBeCloseTo(1, 12);
    expect(g[2]).toBeCloseTo(1 / 0.9998476951563913, 12);
    expect(g[0]).toBeCloseTo(-1 / 0.9998476951563913, 12);
    // box 10..12 E, 50..52 N by 222 km: 48..54 N, cos(54°) = 0.58778525
    const h = growBoxKm([10, 50, 12, 52], 222)!;
    expect(h[1]).toBeCloseTo(48, 12);
    expect(h[3]).toBeCloseTo(54, 12);
    expect(h[0]).toBeCloseTo(10 - 2 / 0.5877852522924731, 12);
    expect(h[2]).toBeCloseTo(12 + 2 / 0.5877852522924731, 12);
  });

  it("covers every longitude when the grown box reaches a pole or would wrap the antimeridian; unknown stays unknown", () => {
    expect(growBoxKm([0, 89.5, 1, 89.6], 111)).toEqual([-180, 88.5, 180, 90]);
    expect(growBoxKm([179, 0, 179.5, 0], 111)).toEqual([-180, -1, 180, 1]);
    expect(growBoxKm([-179.5, 10, -179, 10], 111)).toEqual([-180, 9, 180, 11]);
    expect(growBoxKm([0, 0, 0, 0], 20_000)).toEqual([-180, -90, 180, 90]);
    expect(growBoxKm(null, 10)).toBeNull();
  });

  it("holds every point within the distance (haversine, as the distance steps measure) of a point of the box", () => {
    const lon = fc.double({ min: -180, max: 180, noNaN: true });
    const lat = fc.double({ min: -89.9, max: 89.9, noNaN: true });
    fc.assert(
      fc.property(
        lon,
        lat,
        lon,
        lat,
        fc.double({ min: 0.001, max: 5000, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (x0, y0, x1, y1, km, bearing, fx, fy) => {
          const b: TBox = [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
          const from = [b[0] + fx * (b[2] - b[0]), b[1] + fy * (b[3] - b[1])];
          const [dx, dy] = destination(from, km, bearing, { units: "kilometers" }).geometry.coordinates;
          const to = [dx! > 180 ? dx! - 360 : dx! < -180 ? dx! + 360 : dx!, dy!]; // a longitude as data holds it: within ±180
          // Turf's destination may overshoot the distance in its last digits; the steps keep what haversine puts within km
          if (haversineKm(from[0]!, from[1]!, to[0]!, to[1]!) > km) return;
          const g = growBoxKm(b, km)!;
          expect(inBox(g, to[0]!, to[1]!), `${JSON.stringify({ b, from, to, g })}`).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("boxes", () => {
  it("unions, compares and meets boxes; the box of features skips null geometries", () => {
    expect(unionBox([0, 0, 1, 1], [2, -1, 3, 0.5])).toEqual([0, -1, 3, 1]);
    expect(smallerBox(null, [0, 0, 1, 1])).toEqual([0, 0, 1, 1]);
    expect(smallerBox([0, 0, 2, 2], [5, 5, 6, 6])).toEqual([5, 5, 6, 6]);
    expect(smallerBox(null, null)).toBeNull();
    expect(boxesMeet([0, 0, 1, 1], [1, 1, 2, 2])).toBe(true); // edges count
    expect(boxesMeet([0, 0, 1, 1], [1.01, 0, 2, 2])).toBe(false);
    expect(featuresBox([pt(3, 4), { type: "Feature", geometry: null, properties: {} }, box(-1, 0, 0, 2)])).toEqual([-1, 0, 3, 4]);
    expect(featuresBox([])).toBeNull();
  });
});
