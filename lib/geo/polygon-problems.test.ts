import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Geometry, MultiPolygon, Polygon, Position } from "geojson";
// JSTS is JTS in JavaScript: the validity rules of GEOS (GeoPandas, PostGIS, DuckDB), used here
// as the independent oracle. Installed with Turf (@turf/buffer → @turf/jsts → jsts); no types.
// @ts-expect-error jsts ships no type declarations
import GeoJSONReader from "jsts/org/locationtech/jts/io/GeoJSONReader.js";
// @ts-expect-error jsts ships no type declarations
import IsValidOp from "jsts/org/locationtech/jts/operation/valid/IsValidOp.js";
import { geometryPolygonProblems, polygonProblems } from "./polygon-problems";

const reader = new GeoJSONReader();
/** JTS's verdict: null when valid, else its message ("Self-intersection at or near point ..."). */
function jts(g: Geometry): string | null {
  try {
    const op = new IsValidOp(reader.read(g));
    return op.isValid() ? null : String(op.getValidationError());
  } catch (e) {
    return String(e); // e.g. "Points of LinearRing do not form a closed linestring"
  }
}

const ring = (...xy: number[]): Position[] => {
  const out: Position[] = [];
  for (let i = 0; i < xy.length; i += 2) out.push([xy[i]!, xy[i + 1]!]);
  return [...out, out[0]!];
};
const poly = (...rings: Position[][]): Polygon => ({ type: "Polygon", coordinates: rings });
const multi = (...polys: Polygon[]): MultiPolygon => ({ type: "MultiPolygon", coordinates: polys.map((p) => p.coordinates) });
const square = (x: number, y: number, s: number) => ring(x, y, x + s, y, x + s, y + s, x, y + s);

// Hand-checked cases (drawn on paper); JTS must agree with each verdict.
const cases: [string, Polygon | MultiPolygon, RegExp | null][] = [
  ["a square", poly(square(0, 0, 4)), null],
  ["a square with a hole", poly(square(0, 0, 4), square(1, 1, 2)), null],
  ["a hole touching the exterior at one point", poly(square(0, 0, 4), ring(0, 2, 2, 1, 2, 3)), null],
  ["repeated consecutive positions", poly([[0, 0], [4, 0], [4, 0], [4, 4], [0, 4], [0, 0]]), null], // prettier-ignore
  ["a bow tie", poly(ring(0, 0, 4, 4, 4, 0, 0, 4)), /^ring 0 crosses itself near \(2, 2\)$/],
  ["a ring touching itself at a vertex", poly(ring(0, 0, 4, 0, 2, 2, 4, 4, 0, 4, 2, 2)), /^ring 0 touches itself at \(2, 2\)$/],
  ["a spike", poly(ring(0, 0, 4, 0, 4, 4, 4, 6, 4, 4, 0, 4)), /runs back along itself/],
  ["a hole outside", poly(square(0, 0, 4), square(5, 5, 1)), /^ring 1 \(a hole\) lies outside/],
  ["a hole crossing the exterior", poly(square(0, 0, 4), square(3, 3, 2)), /^ring 0 and ring 1 cross/],
  ["two holes one inside the other", poly(square(0, 0, 10), square(1, 1, 8), square(2, 2, 2)), /lie one inside the other/],
  ["an unclosed ring", poly([[0, 0], [1, 0], [1, 1], [0, 1]]), /not closed|needs at least 4/], // prettier-ignore
  ["two polygons apart", multi(poly(square(0, 0, 1)), poly(square(2, 2, 1))), null],
  ["two polygons touching at a corner", multi(poly(square(0, 0, 1)), poly(square(1, 1, 1))), null],
  ["a polygon in another's hole", multi(poly(square(0, 0, 10), square(2, 2, 6)), poly(square(3, 3, 2))), null],
  ["two overlapping polygons", multi(poly(square(0, 0, 2)), poly(square(1, 1, 2))), /^polygon 0: ring 0 and polygon 1: ring 0 cross/],
  ["a polygon inside another", multi(poly(square(0, 0, 10)), poly(square(2, 2, 2))), /^polygon 1 lies inside polygon 0/],
  ["two polygons sharing an edge", multi(poly(square(0, 0, 1)), poly(square(1, 0, 1))), /share an edge/],
  ["an edge across the antimeridian", poly(ring(179, 0, -179, 0, -179, 1, 179, 1)), /^ring 0 crosses the antimeridian as given .*RFC 7946 §3\.1\.9\)$/],
];

describe("polygonProblems", () => {
  it.each(cases)("%s", (_, g, expected) => {
    const problems = polygonProblems(g);
    if (expected === null) expect(problems).toEqual([]);
    else
      expect(
        problems.some((p) => expected.test(p)),
        problems.join("; "),
      ).toBe(true);
    // The antimeridian rule is ours (RFC 7946 §3.1.9); JTS reads such a ring as drawn.
    if (!/antimeridian/.test(String(expected))) expect(jts(g) === null, `JTS: ${jts(g)}`).toBe(expected === null);
  });

  it("ignores other geometries and null", () => {
    expect(polygonProblems({ type: "Point", coordinates: [0, 0] })).toEqual([]);
    expect(polygonProblems({ type: "LineString", coordinates: [[0, 0], [1, 1], [0, 1], [1, 0]] })).toEqual([]); // prettier-ignore
    expect(polygonProblems(null)).toEqual([]);
  });

  it("agrees with JTS on random small polygons with holes and multipolygons", () => {
    // Corners on a coarse grid, so that touching, shared and collinear edges are common.
    const corner = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }));
    const rawRing = fc.array(corner, { minLength: 3, maxLength: 6 }).map((cs) => [...cs.map(([x, y]) => [x, y]), [cs[0]![0], cs[0]![1]]] as Position[]);
    const polygon = fc.array(rawRing, { minLength: 1, maxLength: 3 });
    const geometry = fc.oneof(
      polygon.map((coordinates): Polygon => ({ type: "Polygon", coordinates })),
      fc.array(polygon, { minLength: 2, maxLength: 3 }).map((coordinates): MultiPolygon => ({ type: "MultiPolygon", coordinates })),
    );
    fc.assert(
      fc.property(geometry, (g) => {
        const verdict = jts(g);
        // Documented differences: JTS also refuses an interior cut into pieces by touching
        // rings, and rings of fewer than 3 distinct corners count as problems for both.
        fc.pre(verdict === null || !/Interior is disconnected/.test(verdict));
        expect(polygonProblems(g).length === 0, `JTS: ${verdict}; ours: ${polygonProblems(g).join("; ")}`).toBe(verdict === null);
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it("checks each Polygon and MultiPolygon member of a GeometryCollection on its own, nested collections too, naming it by its path", () => {
    const bowTie = poly(ring(0, 0, 4, 4, 4, 0, 0, 4));
    const fine = poly(square(0, 0, 4));
    expect(geometryPolygonProblems(bowTie)).toEqual([{ path: [], problems: ["ring 0 crosses itself near (2, 2)"] }]);
    expect(
      geometryPolygonProblems({
        type: "GeometryCollection",
        geometries: [
          fine,
          bowTie,
          { type: "Point", coordinates: [0, 0] },
          { type: "GeometryCollection", geometries: [multi(poly(square(0, 0, 2)), poly(square(1, 1, 2)))] },
        ],
      }),
    ).toEqual([
      { path: ["geometries", 1], problems: ["ring 0 crosses itself near (2, 2)"] },
      {
        path: ["geometries", 3, "geometries", 0],
        problems: ["polygon 0: ring 0 and polygon 1: ring 0 cross near (2, 1)", "polygon 0: ring 0 and polygon 1: ring 0 cross near (1, 2)"],
      },
    ]);
    // Members may overlap each other (OGC sets no rule between them); each alone is valid here.
    expect(geometryPolygonProblems({ type: "GeometryCollection", geometries: [fine, fine] })).toEqual([]);
    expect(geometryPolygonProblems(null)).toEqual([]);
  });
});
