/**
 * Test data shared by the tests of several step folders: features with holes, null geometry,
 * the antimeridian, and a few hand-checked numbers.
 *
 * Handy numbers: 1° of a great circle = 6371.0088 km × π/180 = 111.19508 km; a 1°×1° box at
 * the equator has 12,363.7 km² (Turf area, spherical).
 */
import { distance } from "@turf/turf";
import { pt } from "@/lib/steps/test-helpers";
import type { TFeature } from "@/lib/steps/dataset";

export const cities = [
  pt(0.5, 0.5, { name: "Zürich Nord", population: 100, "max pop": 1 }),
  pt(1.5, 0.5, { name: "B", population: 300 }),
  pt(5, 5, { name: "Far", population: 50 }),
  { type: "Feature", geometry: null, properties: { name: "Nowhere", population: 7 } } as TFeature,
  pt(0.2, 0.2, { name: "NullPop", population: null }),
];

export const rows = [
  { n: "a", v: 2 },
  { n: "b", v: null },
  { n: "c", v: 10 },
  { n: "d", v: 2 },
];

// A MultiPolygon with a hole in its first polygon: [0,4]² minus [1,3]², plus [10,11]².
export const donut: TFeature = {
  type: "Feature",
  geometry: {
    type: "MultiPolygon",
    coordinates: [
      [
        [
          [0, 0],
          [4, 0],
          [4, 4],
          [0, 4],
          [0, 0],
        ],
        [
          [1, 1],
          [3, 1],
          [3, 3],
          [1, 3],
          [1, 1],
        ],
      ],
      [
        [
          [10, 10],
          [11, 10],
          [11, 11],
          [10, 11],
          [10, 10],
        ],
      ],
    ],
  },
  properties: { name: "Donut land" },
};

export const pts = [
  pt(0.5, 0.5, { id: 1 }),
  pt(2, 2, { id: 2 }),
  pt(10.5, 10.5, { id: 3 }),
  pt(0, 2, { id: 4 }),
  pt(20, 20, { id: 5 }),
  { type: "Feature", geometry: null, properties: { id: 6 } } as TFeature,
];

export const places = [pt(0, 0, { id: "p1" }), pt(50, 50, { id: "far" })];

export const targets = [pt(0, 0.1, { name: "A", population: 10 }), pt(0.2, 0, { name: "B", population: 20 }), pt(0, 1, { name: "C", population: 5 })];

export const dB = distance([0, 0], [0.2, 0]);

export const DEG_KM = 111.19508023353887;

export const BOX_KM2 = 12_363.718145180046;

export const nullGeom = (properties: Record<string, unknown>): TFeature => ({ type: "Feature", geometry: null, properties });

// [0,4]² with the hole [1,3]², plus the island [10,11]².
// The same MultiPolygon with a hole, with a unicode property name and value.
export const donutUnicode: TFeature = { ...donut, properties: { "Name des Lands": "Dönut Länd" } };

// One square degree either side of the antimeridian, as RFC 7946 wants it: two parts.
export const fiji: TFeature = {
  type: "Feature",
  geometry: {
    type: "MultiPolygon",
    coordinates: [
      [
        [
          [179, -17],
          [180, -17],
          [180, -16],
          [179, -16],
          [179, -17],
        ],
      ],
      [
        [
          [-180, -17],
          [-179, -17],
          [-179, -16],
          [-180, -16],
          [-180, -17],
        ],
      ],
    ],
  },
  properties: { name: "Viti Levu ∓180" },
};

export const rowsEdge = [
  { "Stadt name": "Zürich", "Einw. gesamt": 400, ключ: "a b" },
  { "Stadt name": "Genève", "Einw. gesamt": null, ключ: "a b" },
  { "Stadt name": "東京", "Einw. gesamt": 9000, ключ: null },
];

export const ptsEdge = [
  pt(0.5, 0.5, { id: "in" }),
  pt(2, 2, { id: "hole" }),
  pt(1, 2, { id: "hole edge" }),
  pt(10.5, 10.5, { id: "island" }),
  pt(179.5, -16.5, { id: "fiji east" }),
  pt(-179.5, -16.5, { id: "fiji west" }),
  nullGeom({ id: "none" }),
];
