import { describe, expect, it } from "vitest";
import type { Polygon, Position } from "geojson";
import { splitAtAntimeridian } from "./antimeridian";

/** A ring around (lon 180, lat 0) of `n` positions, drawn with longitudes in [-180, 180] (so it jumps). */
function ringAcross(n: number): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    let x = 180 + 2 * Math.cos(a);
    if (x > 180) x -= 360;
    ring.push([x, 2 * Math.sin(a)]);
  }
  ring.push(ring[0]!);
  return ring;
}

describe("splitAtAntimeridian", () => {
  it("leaves a polygon that does not jump as it is", () => {
    const g: Polygon = {
      type: "Polygon",
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    };
    expect(splitAtAntimeridian(g)).toBe(g);
  });

  it("cuts a ring across ±180° into a piece on each side, within [-180, 180]", () => {
    const out = splitAtAntimeridian({ type: "Polygon", coordinates: [ringAcross(64)] });
    expect(out.type).toBe("MultiPolygon");
    const xs = (out.coordinates as Position[][][]).flat(2).map((p) => p[0]!);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(-180);
    expect(Math.max(...xs)).toBeLessThanOrEqual(180);
    expect(out.coordinates).toHaveLength(2);
  });

  it("takes a ring of 300,000 positions (more than a function call takes as arguments)", () => {
    // a circle between lon 179 and 180 whose one position on 180 is written as -180: it jumps, and
    // once redrawn it lies on one side, so it comes back whole, with 180 for -180
    const n = 300_000;
    const ring: Position[] = [];
    for (let i = 0; i < n; i++) {
      const a = Math.PI + (2 * Math.PI * i) / n;
      const x = i === n / 2 ? -180 : 179.5 + 0.5 * Math.cos(a);
      ring.push([x, 0.5 * Math.sin(a)]);
    }
    ring.push(ring[0]!);
    const out = splitAtAntimeridian({ type: "Polygon", coordinates: [ring] });
    expect(out.type).toBe("MultiPolygon");
    expect(out.coordinates).toHaveLength(1);
    const back = (out.coordinates as Position[][][])[0]![0]!;
    expect(back).toHaveLength(n + 1);
    expect(back[n / 2]).toEqual([180, ring[n / 2]![1]]);
    expect(back.every((p) => p[0]! >= 179 && p[0]! <= 180)).toBe(true);
  });
});
