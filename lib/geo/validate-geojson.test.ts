import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Polygon, Position } from "geojson";
import { polygonProblems } from "./polygon-problems";
import { MAX_AREA_POSITIONS, validateArea, validateFeature, validateFeatureCollection } from "./validate-geojson";

const ring = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
  [0, 0],
];

describe("validateFeatureCollection", () => {
  it("accepts a valid collection with null geometry and null properties", () => {
    expect(
      validateFeatureCollection({
        type: "FeatureCollection",
        features: [
          { type: "Feature", geometry: { type: "Point", coordinates: [8.5, 47.4, 400] }, properties: { "näme x": "Zürich" } },
          { type: "Feature", geometry: null, properties: null, id: 3 },
          {
            type: "Feature",
            geometry: {
              type: "MultiPolygon",
              coordinates: [
                [
                  ring,
                  [
                    [0.2, 0.2],
                    [0.4, 0.2],
                    [0.4, 0.4],
                    [0.2, 0.2],
                  ],
                ],
              ],
            },
            properties: {},
          },
          {
            type: "Feature",
            geometry: {
              type: "GeometryCollection",
              geometries: [
                {
                  type: "LineString",
                  coordinates: [
                    [0, 0],
                    [1, 1],
                  ],
                },
              ],
            },
            properties: {},
          },
        ],
      }),
    ).toEqual([]);
  });
  it("names every fault with its path", () => {
    const issues = validateFeatureCollection({
      type: "FeatureCollection",
      features: [
        { type: "Feature", geometry: { type: "Point", coordinates: [181, -91] }, properties: {} },
        {
          type: "Feature",
          geometry: {
            type: "Polygon",
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [1, 1],
                [0, 1],
              ],
            ],
          },
          properties: {},
        },
        {
          type: "Feature",
          geometry: {
            type: "Polygon",
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [0, 0],
              ],
            ],
          },
          properties: {},
        },
        { type: "Feature", geometry: { type: "Circle", coordinates: [0, 0] } },
        { type: "Feature", geometry: { type: "LineString", coordinates: [[0, "x"]] }, properties: 5 },
      ],
    });
    expect(issues.map((i) => [i.path.join("/"), i.code])).toEqual([
      ["features/0/geometry/coordinates/0", "invalid_position"],
      ["features/0/geometry/coordinates/1", "invalid_position"],
      ["features/1/geometry/coordinates/0", "unclosed_ring"],
      ["features/2/geometry/coordinates/0", "too_few_positions"],
      ["features/3/geometry/type", "invalid_geojson"],
      ["features/3/properties", "invalid_geojson"],
      ["features/4/geometry/coordinates/0/1", "invalid_position"],
      ["features/4/geometry/coordinates", "too_few_positions"],
      ["features/4/properties", "invalid_geojson"],
    ]);
  });
  it("limits the number of features and rejects non-collections", () => {
    const f = { type: "Feature", geometry: null, properties: {} };
    expect(validateFeatureCollection({ type: "FeatureCollection", features: Array(5001).fill(f) })[0].code).toBe("too_many_features");
    expect(validateFeatureCollection({ type: "Feature" }).map((i) => i.path.join("/"))).toEqual(["type", "features"]);
    expect(validateFeatureCollection([])[0].code).toBe("invalid_geojson");
  });
  it("checks one feature alone as it checks each feature of a collection (validateFeature)", () => {
    const features = [
      { type: "Feature", geometry: { type: "Point", coordinates: [999, "a"] }, properties: [] },
      {
        type: "Feature",
        geometry: {
          type: "Polygon",
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [0, 0],
            ],
          ],
        },
        properties: null,
        id: {},
      },
      { type: "Feat", properties: {} },
      7,
      { type: "Feature", geometry: null, properties: null },
    ];
    const inCollection = validateFeatureCollection({ type: "FeatureCollection", features });
    features.forEach((f, i) => {
      const own = inCollection.filter((issue) => issue.path[1] === i).map((issue) => ({ ...issue, path: issue.path.slice(2) }));
      expect(validateFeature(f)).toEqual(own);
    });
    expect(validateFeature(features[4])).toEqual([]);
  });
  it("names a coordinate that is not finite by its value (JSON's 1e400 reads as Infinity), not as 'number'", () => {
    const issues = validateFeature({ type: "Feature", properties: {}, geometry: { type: "Point", coordinates: [Infinity, NaN, -Infinity] } });
    expect(issues.map((i) => [i.path, i.message])).toEqual([
      [
        ["geometry", "coordinates", 0],
        "Position element 0 must be a finite number, got Infinity (a number too large for a 64-bit double, such as 1e400, reads as Infinity)",
      ],
      [["geometry", "coordinates", 1], "Position element 1 must be a finite number, got NaN"],
      [
        ["geometry", "coordinates", 2],
        "Position element 2 must be a finite number, got -Infinity (a number too large for a 64-bit double, such as 1e400, reads as -Infinity)",
      ],
    ]);
  });

  it("caps the list of faults", () => {
    const bad = { type: "Feature", geometry: { type: "Point", coordinates: [999, 0] }, properties: {} };
    const issues = validateFeatureCollection({ type: "FeatureCollection", features: Array(500).fill(bad) });
    expect(issues).toHaveLength(101);
    expect(issues[100].code).toBe("too_many_errors");
  });
});

describe("validateArea", () => {
  it("accepts a polygon with a hole", () => {
    expect(
      validateArea({
        type: "Polygon",
        coordinates: [
          ring,
          [
            [0.2, 0.2],
            [0.4, 0.2],
            [0.4, 0.4],
            [0.2, 0.2],
          ],
        ],
      }),
    ).toEqual([]);
  });
  it("rejects self-intersections, holes outside, wrong types", () => {
    expect(
      validateArea({
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [1, 0],
            [0, 1],
            [0, 0],
          ],
        ],
      })[0],
    ).toMatchObject({ path: ["coordinates", 0], code: "self_intersection" });
    expect(
      validateArea({
        type: "Polygon",
        coordinates: [
          ring,
          [
            [2, 2],
            [3, 2],
            [3, 3],
            [2, 2],
          ],
        ],
      })[0],
    ).toMatchObject({ path: ["coordinates", 1], code: "hole_outside_shell" });
    expect(validateArea({ type: "MultiPolygon", coordinates: [[ring]] })[0].path).toEqual(["type"]);
    expect(
      validateArea({
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
      })[0],
    ).toMatchObject({ path: ["coordinates", 0], code: "unclosed_ring" });
    expect(validateFeature({ type: "Feature", properties: null, geometry: { type: "MultiLineString", coordinates: [[[0, 0]]] } })[0].path).toEqual([
      "geometry",
      "coordinates",
      0,
    ]);
  });

  it("names the ring that has no area, too few distinct positions, or crosses itself", () => {
    const outer = ring;
    const cases: [string, number[][][], (string | number)[], string][] = [
      [
        "a zero-area triangle",
        [
          [
            [0, 0],
            [1, 1],
            [2, 2],
            [0, 0],
          ],
        ],
        ["coordinates", 0],
        "zero_area",
      ],
      [
        "a flat ring along a parallel",
        [
          [
            [8.4, 47.3],
            [8.7, 47.3],
            [8.55, 47.3],
            [8.4, 47.3],
          ],
        ],
        ["coordinates", 0],
        "zero_area",
      ],
      [
        "a ring with a repeated position",
        [
          [
            [0, 0],
            [1, 0],
            [1, 0],
            [0, 0],
          ],
        ],
        ["coordinates", 0],
        "too_few_positions",
      ],
      [
        "a flat hole",
        [
          outer,
          [
            [1, 1],
            [2, 2],
            [3, 3],
            [1, 1],
          ],
        ],
        ["coordinates", 1],
        "zero_area",
      ],
      [
        "a hole that crosses itself",
        [
          outer,
          [
            [1, 1],
            [3, 3],
            [3, 1],
            [1, 3],
            [1, 1],
          ],
        ],
        ["coordinates", 1],
        "self_intersection",
      ],
      [
        "a hole outside the outer ring, touching it at a corner",
        [
          outer,
          [
            [1, 1],
            [20, 1],
            [20, 2],
            [1, 1],
          ],
        ],
        ["coordinates", 1],
        "hole_outside_shell",
      ],
      [
        "a hole that crosses the outer ring",
        [
          outer,
          [
            [0.5, 0.5],
            [2, 0.5],
            [2, 0.7],
            [0.5, 0.5],
          ],
        ],
        ["coordinates"],
        "self_intersection",
      ],
    ];
    for (const [what, coordinates, path, code] of cases) {
      const issues = validateArea({ type: "Polygon", coordinates });
      expect(issues[0], what).toMatchObject({ path, code });
      expect(issues[0]!.message, what).toMatch(path.length === 2 ? (path[1] === 0 ? /outer ring/ : /Hole 1/) : /rings cross/);
    }
  });
});

describe("validateArea agrees with the upload's polygon check (OGC validity, polygon-problems.ts)", () => {
  const cell = (max: number) => fc.tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max }));
  const closed = (ps: Position[]) => [...ps, ps[0]!];
  const valid = (poly: Polygon) => validateArea(poly).length === 0;
  const square = (from: number, to: number) =>
    closed([
      [from, from],
      [to, from],
      [to, to],
      [from, to],
    ]);
  it("on random small polygons of a grid (crossings, touches, collinear edges, holes)", () => {
    const rings = fc.array(fc.array(cell(5), { minLength: 3, maxLength: 8 }).map(closed), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(rings, (coordinates) => {
        const poly: Polygon = { type: "Polygon", coordinates };
        expect(valid(poly), JSON.stringify(coordinates)).toBe(polygonProblems(poly).length === 0);
      }),
      { numRuns: 500 },
    );
  });
  it("on a large square with small random holes (inside, outside, touching, crossing)", () => {
    const big = square(2, 30);
    const hole = fc.tuple(cell(32), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 })).map(([[x, y], w, h]) =>
      closed([
        [x, y],
        [x + w, y],
        [x, y + h],
      ]),
    );
    fc.assert(
      fc.property(fc.array(hole, { minLength: 1, maxLength: 4 }), (holes) => {
        const poly: Polygon = { type: "Polygon", coordinates: [big, ...holes] };
        expect(valid(poly), JSON.stringify(holes)).toBe(polygonProblems(poly).length === 0);
      }),
      { numRuns: 300 },
    );
  });
  it("accepts a hole touching the outer ring at one point and refuses one sharing an edge with it", () => {
    const outer = square(0, 10);
    const touching = closed([
      [0, 5],
      [3, 4],
      [3, 6],
    ]);
    const sharing = closed([
      [0, 4],
      [3, 5],
      [0, 6],
    ]);
    expect(validateArea({ type: "Polygon", coordinates: [outer, touching] })).toEqual([]);
    expect(validateArea({ type: "Polygon", coordinates: [outer, sharing] })).toEqual([
      expect.objectContaining({ path: ["coordinates"], code: "self_intersection", message: expect.stringMatching(/overlap along a line/) }),
    ]);
  });
  it("refuses a hole inside another hole, naming the inner one", () => {
    const outer = square(0, 10);
    const big = square(2, 8);
    const small = closed([
      [4, 4],
      [5, 4],
      [5, 5],
    ]);
    expect(validateArea({ type: "Polygon", coordinates: [outer, big, small] })).toEqual([
      expect.objectContaining({ path: ["coordinates", 2], code: "hole_outside_shell" }),
    ]);
  });
});

/** A circle-like ring of `n` distinct positions (n + 1 with the closing one) around (lon, lat). */
function circle(n: number, lon = 8.5, lat = 47.4, radius = 0.5): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) ring.push([lon + radius * Math.cos((2 * Math.PI * i) / n), lat + radius * Math.sin((2 * Math.PI * i) / n)]);
  return [...ring, ring[0]!];
}

describe("validateArea size", () => {
  it("accepts an area of the most positions allowed, outer ring and hole together", () => {
    const outer = circle(MAX_AREA_POSITIONS / 2 - 1);
    const hole = circle(MAX_AREA_POSITIONS / 2 - 1, 8.5, 47.4, 0.25).reverse();
    expect(outer.length + hole.length).toBe(MAX_AREA_POSITIONS);
    expect(validateArea({ type: "Polygon", coordinates: [outer, hole] })).toEqual([]);
  });
  it("refuses more positions, naming the ring where the count passes the limit", () => {
    const outer = circle(MAX_AREA_POSITIONS / 2 - 1);
    const hole = circle(MAX_AREA_POSITIONS / 2, 8.5, 47.4, 0.25).reverse();
    expect(validateArea({ type: "Polygon", coordinates: [outer, hole] })).toEqual([
      expect.objectContaining({ path: ["coordinates", 1], code: "too_many_positions" }),
    ]);
    // The 16,000-position area that held the event loop for 70 s: refused before any other check.
    expect(validateArea({ type: "Polygon", coordinates: [circle(16_000)] })).toEqual([
      expect.objectContaining({ path: ["coordinates", 0], code: "too_many_positions" }),
    ]);
  });
  it("still finds a crossing in an area of the most positions allowed", () => {
    const outer = circle(MAX_AREA_POSITIONS - 1);
    // Swap two positions far apart: the ring now runs across itself twice.
    [outer[100], outer[5000]] = [outer[5000]!, outer[100]!];
    expect(validateArea({ type: "Polygon", coordinates: [outer] })[0]).toMatchObject({ path: ["coordinates", 0], code: "self_intersection" });
  });
});
