import { describe, expect, it } from "vitest";
import { booleanPointInPolygon } from "@turf/turf";
import type { MultiPolygon, Polygon, Position } from "geojson";
import { loadWorldCountries } from "@/lib/demo/real-data";
import { pointInPolygonal, pointInPolygonRings } from "./point-in-polygon";

/** Turf's answer in the same three-way form. */
function turf(g: Polygon | MultiPolygon, x: number, y: number): string {
  if (!booleanPointInPolygon([x, y], g)) return "outside";
  return booleanPointInPolygon([x, y], g, { ignoreBoundary: true }) ? "inside" : "boundary";
}

// Deterministic pseudo-random numbers (mulberry32).
function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("pointInPolygonRings", () => {
  // A star with 200 spikes (many edges, so bands are used) and a square hole.
  const outer: Position[] = [];
  for (let i = 0; i < 400; i++) {
    const a = (i / 400) * 2 * Math.PI;
    const r = i % 2 ? 10 : 6;
    outer.push([Math.round(r * Math.cos(a) * 1000) / 1000, Math.round(r * Math.sin(a) * 1000) / 1000]);
  }
  outer.push(outer[0]!);
  const hole: Position[] = [
    [-2, -2],
    [-2, 2],
    [2, 2],
    [2, -2],
    [-2, -2],
  ];
  const star: Polygon = { type: "Polygon", coordinates: [outer, hole] };

  it("agrees with Turf on random points, vertices, edge midpoints and the hole", () => {
    const rand = rng(7);
    const pts: Position[] = [];
    for (let i = 0; i < 20_000; i++) pts.push([rand() * 24 - 12, rand() * 24 - 12]);
    for (const p of [...outer, ...hole]) pts.push(p); // vertices: boundary
    pts.push([0, 2], [2, 0], [-2, 1.5], [0, 0], [1.999, 1.999], [5, 0], [-6, 0]);
    for (let i = 0; i + 1 < outer.length; i++) pts.push([(outer[i]![0]! + outer[i + 1]![0]!) / 2, (outer[i]![1]! + outer[i + 1]![1]!) / 2]);
    let boundary = 0;
    for (const [x, y] of pts) {
      const got = pointInPolygonRings(star.coordinates, x!, y!);
      expect(got, `${x},${y}`).toBe(turf(star, x!, y!));
      if (got === "boundary") boundary++;
    }
    expect(boundary).toBeGreaterThan(400);
  });

  it("agrees with Turf on MultiPolygons with holes, on every Natural Earth country", () => {
    const rand = rng(11);
    for (const f of loadWorldCountries().features) {
      const g = f.geometry as Polygon | MultiPolygon;
      const rings = g.type === "Polygon" ? g.coordinates : g.coordinates.flat();
      const some = rings.flat();
      for (let i = 0; i < 40; i++) {
        const v = some[Math.floor(rand() * some.length)]!;
        // a vertex, and points close to it
        for (const [dx, dy] of [
          [0, 0],
          [1e-3, 0],
          [0, -1e-3],
          [rand() - 0.5, rand() - 0.5],
        ]) {
          const x = v[0]! + dx!,
            y = v[1]! + dy!;
          expect(pointInPolygonal(g, x, y), `${f.properties.name} ${x},${y}`).toBe(turf(g, x, y));
        }
      }
    }
  });

  it("handles empty and degenerate input", () => {
    expect(pointInPolygonRings([], 0, 0)).toBe("outside");
    expect(pointInPolygonal({ type: "MultiPolygon", coordinates: [] }, 0, 0)).toBe("outside");
    const tri: Position[][] = [
      [
        [0, 0],
        [1, 0],
        [0, 1],
        [0, 0],
      ],
    ];
    expect(pointInPolygonRings(tri, 0.5, 0.5)).toBe("boundary");
    expect(pointInPolygonRings(tri, 0.25, 0.25)).toBe("inside");
  });
});
