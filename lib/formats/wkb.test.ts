import type { Geometry } from "geojson";
import { describe, expect, it } from "vitest";
import { EncodeError } from "./errors";
import { decodeWkb } from "./test-support";
import { geometryToWkb, GeometryStats, WkbArena } from "./wkb";

const polygonWithHole: Geometry = {
  type: "Polygon",
  coordinates: [
    [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ],
    [
      [2, 2],
      [2, 4],
      [4, 4],
      [4, 2],
      [2, 2],
    ],
  ],
};

const samples: Geometry[] = [
  { type: "Point", coordinates: [13.404954, 52.520008] },
  {
    type: "LineString",
    coordinates: [
      [0, 0],
      [1, 1],
      [2, 0.5],
    ],
  },
  polygonWithHole,
  {
    type: "MultiPoint",
    coordinates: [
      [1, 2],
      [3, 4],
    ],
  },
  {
    type: "MultiLineString",
    coordinates: [
      [
        [0, 0],
        [1, 1],
      ],
      [
        [2, 2],
        [3, 3],
        [4, 4],
      ],
    ],
  },
  {
    type: "MultiPolygon",
    coordinates: [
      polygonWithHole.coordinates,
      [
        [
          [20, 20],
          [30, 20],
          [30, 30],
          [20, 20],
        ],
        [
          [22, 22],
          [24, 22],
          [24, 24],
          [22, 22],
        ],
        [
          [25, 21],
          [26, 21],
          [26, 22],
          [25, 21],
        ],
      ],
    ],
  },
  {
    type: "GeometryCollection",
    geometries: [
      { type: "Point", coordinates: [-1, -2] },
      {
        type: "LineString",
        coordinates: [
          [5, 5],
          [6, 7],
        ],
      },
    ],
  },
];

describe("geometryToWkb", () => {
  for (const geometry of samples) {
    it(`round-trips a ${geometry.type} through an independent decoder`, () => {
      expect(decodeWkb(geometryToWkb(geometry))).toEqual(geometry);
    });
  }

  it("gives the same bytes when allocating from an arena", () => {
    const arena = new WkbArena();
    const views = samples.map((geometry) => geometryToWkb(geometry, arena));
    views.forEach((view, i) => expect(Array.from(view)).toEqual(Array.from(geometryToWkb(samples[i]))));
    expect(views[1].buffer).toBe(views[0].buffer);
    const big = geometryToWkb({ type: "LineString", coordinates: Array.from({ length: 70_000 }, (_, i) => [i, i]) }, arena);
    expect(big.length).toBe(9 + 70_000 * 16);
  });

  it("writes little-endian ISO headers", () => {
    const wkb = geometryToWkb({ type: "Point", coordinates: [1, 2] });
    expect(wkb.length).toBe(21);
    expect(wkb[0]).toBe(1);
    expect(new DataView(wkb.buffer).getUint32(1, true)).toBe(1);
  });

  it("writes XYZ when a position has a height, drops extra ordinates", () => {
    const wkb = geometryToWkb({
      type: "LineString",
      coordinates: [
        [1, 2, 3],
        [4, 5, 6, 7],
      ],
    });
    expect(new DataView(wkb.buffer).getUint32(1, true)).toBe(1002);
    expect(decodeWkb(wkb)).toEqual({
      type: "LineString",
      coordinates: [
        [1, 2, 3],
        [4, 5, 6],
      ],
    });
    const mixed = decodeWkb(
      geometryToWkb({
        type: "LineString",
        coordinates: [
          [1, 2],
          [4, 5, 6],
        ],
      }),
    );
    expect(mixed.type === "LineString" && mixed.coordinates[0][2]).toBeNaN();
  });

  it("encodes an empty point as NaN NaN", () => {
    const g = decodeWkb(geometryToWkb({ type: "Point", coordinates: [] }));
    expect(g.type === "Point" && g.coordinates.every(Number.isNaN)).toBe(true);
  });

  it("collects sorted types and the X/Y bbox", () => {
    const stats = new GeometryStats();
    for (const geometry of samples) stats.add(geometry);
    stats.add({ type: "Point", coordinates: [1, 1, 100] });
    expect(stats.geometryTypes()).toEqual(["GeometryCollection", "LineString", "MultiLineString", "MultiPoint", "MultiPolygon", "Point", "Point Z", "Polygon"]);
    expect(stats.bbox()).toEqual([-1, -2, 30, 52.520008]);
    expect(new GeometryStats().bbox()).toBeUndefined();
  });

  it("rejects malformed geometry", () => {
    const bad = [
      { type: "Circle", coordinates: [0, 0] },
      { type: "Point", coordinates: [1] },
      { type: "Point", coordinates: ["1", "2"] },
      { type: "Polygon", coordinates: [[1, 2]] },
      { type: "LineString" },
      { type: "GeometryCollection" },
    ];
    for (const geometry of bad) expect(() => geometryToWkb(geometry as unknown as Geometry)).toThrow(EncodeError);
  });
});
