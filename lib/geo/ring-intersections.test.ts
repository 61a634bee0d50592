import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { kinks } from "@turf/turf";
import type { Position } from "geojson";
import { MAX_EXACT_PAIRWISE_EDGES, findForbiddenMeeting, findKink } from "./ring-intersections";

// Integer coordinates keep every product below 2^53, so the brute force below is exact.
const cell = (max: number) => fc.tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max }));
const closedRing = (max: number, minLength: number, maxLength: number) =>
  fc.array(cell(max), { minLength, maxLength }).map((ps) => [...ps, ps[0]!] as Position[]);
const ringsOf = (max: number, maxLength: number) => fc.array(closedRing(max, 3, maxLength), { minLength: 1, maxLength: 3 });

/**
 * Independent oracle for `findForbiddenMeeting`: every pair of non-zero edges, with exact
 * integer arithmetic and a different formulation (parametric overlap of collinear edges,
 * consecutive edges found by walking the ring), for the OGC notion of a simple ring.
 */
function bruteForbidden(rings: Position[][]): boolean {
  type E = { r: number; k: number; n: number; p: Position; q: Position };
  const edges: E[] = [];
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r]!;
    const own: E[] = [];
    for (let i = 0; i + 1 < ring.length; i++) {
      if (ring[i]![0] === ring[i + 1]![0] && ring[i]![1] === ring[i + 1]![1]) continue;
      own.push({ r, k: own.length, n: 0, p: ring[i]!, q: ring[i + 1]! });
    }
    for (const e of own) e.n = own.length;
    edges.push(...own);
  }
  const cross = (o: Position, a: Position, b: Position) => (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);
  const onEdge = (e: E, x: Position) => cross(e.p, e.q, x) === 0 && (x[0]! - e.p[0]!) * (x[0]! - e.q[0]!) <= 0 && (x[1]! - e.p[1]!) * (x[1]! - e.q[1]!) <= 0;
  const same = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];
  for (let a = 0; a < edges.length; a++) {
    for (let b = a + 1; b < edges.length; b++) {
      const s = edges[a]!;
      const t = edges[b]!;
      const next = s.r === t.r && (s.k + 1) % s.n === t.k;
      const prev = s.r === t.r && (t.k + 1) % t.n === s.k;
      if (next || prev) {
        // Consecutive: allowed unless the second runs back over the first (a point of one, not the common vertex, on the other).
        const [f, g] = next ? [s, t] : [t, s];
        if (onEdge(g, f.p) && !same(f.p, g.p)) return true;
        if (onEdge(f, g.q) && !same(g.q, f.q)) return true;
        if (s.n === 2) return true;
        continue;
      }
      const d1 = Math.sign(cross(s.p, s.q, t.p));
      const d2 = Math.sign(cross(s.p, s.q, t.q));
      const d3 = Math.sign(cross(t.p, t.q, s.p));
      const d4 = Math.sign(cross(t.p, t.q, s.q));
      if (d1 * d2 < 0 && d3 * d4 < 0) return true;
      if (onEdge(s, t.p) || onEdge(s, t.q) || onEdge(t, s.p) || onEdge(t, s.q)) return true;
    }
  }
  return false;
}

/** A star: `n` vertices at alternating radii around (0, 0), in angle order, so no two edges meet. */
function star(n: number, spike = 1): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const r = i % 2 === 0 ? 10 * spike : 5;
    ring.push([r * Math.cos(a), r * Math.sin(a)]);
  }
  ring.push(ring[0]!);
  return ring;
}

describe("findForbiddenMeeting (sweep)", () => {
  it("agrees with an all-pairs exact check on random rings of a small grid (many collinear and touching edges)", () => {
    fc.assert(
      fc.property(ringsOf(4, 9), (rings) => {
        expect(findForbiddenMeeting(rings) !== null).toBe(bruteForbidden(rings));
      }),
      { numRuns: 3000 },
    );
  });
  it("agrees on longer rings of a larger grid", () => {
    fc.assert(
      fc.property(ringsOf(40, 60), (rings) => {
        expect(findForbiddenMeeting(rings) !== null).toBe(bruteForbidden(rings));
      }),
      { numRuns: 500 },
    );
  });
  it("agrees on star-shaped rings rounded to a grid (mostly simple, with touching and collinear edges from rounding)", () => {
    // Random radii at increasing angles, rounded: near-simple rings whose faults are few and subtle.
    const starRing = fc
      .tuple(fc.integer({ min: 6, max: 80 }), fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 2, max: 30 }))
      .map(([n, seed, scale]) => {
        const ring: Position[] = [];
        let x = seed;
        for (let i = 0; i < n; i++) {
          x = (x * 48271) % 2147483647;
          const r = 1 + (x % scale);
          const a = (2 * Math.PI * i) / n;
          ring.push([Math.round(r * Math.cos(a)) + scale, Math.round(r * Math.sin(a)) + scale]);
        }
        return [...ring, ring[0]!];
      });
    fc.assert(
      fc.property(fc.array(starRing, { minLength: 1, maxLength: 2 }), (rings) => {
        expect(findForbiddenMeeting(rings) !== null).toBe(bruteForbidden(rings));
      }),
      { numRuns: 1000 },
    );
  });
  it("finds where an edge leaves a star and none in the star itself", () => {
    for (const n of [1_000, 10_000]) {
      const ring = star(n);
      expect(findForbiddenMeeting([ring])).toBeNull();
      // Move one inner vertex far out on the opposite side: its two edges leave the star there.
      const bent = ring.map((p) => [...p]);
      const k = n / 2 + 1;
      bent[k] = [-4 * bent[k]![0]!, -4 * bent[k]![1]!];
      expect(findForbiddenMeeting([bent])).not.toBeNull();
      if (n === 1_000) expect(kinks({ type: "Polygon", coordinates: [bent] }).features.length).toBeGreaterThan(0);
    }
  });
});

describe("findKink (Turf's kinks rule)", () => {
  it("finds a kink exactly when Turf's kinks finds one, on random rings of a small grid", () => {
    fc.assert(
      fc.property(ringsOf(4, 9), (rings) => {
        expect(findKink(rings).kink !== null).toBe(kinks({ type: "Polygon", coordinates: rings }).features.length > 0);
      }),
      { numRuns: 3000 },
    );
  });
  it("agrees with Turf on random rings with repeated positions", () => {
    const withRepeats = ringsOf(6, 10).chain((rings) =>
      fc.array(fc.nat(), { maxLength: 3 }).map((picks) =>
        rings.map((ring) => {
          const out = [...ring];
          for (const k of picks) out.splice(k % out.length, 0, out[k % out.length]!);
          return out;
        }),
      ),
    );
    fc.assert(
      fc.property(withRepeats, (rings) => {
        expect(findKink(rings).kink !== null).toBe(kinks({ type: "Polygon", coordinates: rings }).features.length > 0);
      }),
      { numRuns: 2000 },
    );
  });
  it("reports where: the crossing of a bow tie, the repeated position Turf counts", () => {
    const bowTie = [
      [0, 0],
      [2, 2],
      [2, 0],
      [0, 2],
      [0, 0],
    ];
    expect(findKink([bowTie])).toEqual({ kink: { at: [1, 1], overlap: false }, simple: false });
    // A repeated closing position: the first and the second-to-last edges meet at (0, 0).
    const repeated = [
      [0, 0],
      [2, 0],
      [2, 2],
      [0, 0],
      [0, 0],
    ];
    expect(findKink([repeated]).kink).toEqual({ at: [0, 0], overlap: false });
  });
  it("compares pairwise only up to the edge limit when edges overlap along a line", () => {
    // A triangle whose base runs 1 -> 2 -> 1 -> 2 along itself: Turf skips the collinear pairs.
    const spiky = (n: number): Position[] => {
      const ring: Position[] = [
        [0, 0],
        [1, 0],
        [2, 0],
        [1, 0],
      ];
      for (let i = 2; i <= n; i++) ring.push([i, 0]);
      ring.push([n / 2, 5], [0, 0]);
      return ring;
    };
    const small = spiky(10);
    expect(kinks({ type: "Polygon", coordinates: [small] }).features).toEqual([]);
    expect(findKink([small])).toEqual({ kink: null, simple: false });
    const large = spiky(MAX_EXACT_PAIRWISE_EDGES);
    expect(findKink([large]).kink).toMatchObject({ overlap: true });
  });
});
