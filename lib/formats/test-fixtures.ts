/** Shared edge-case data for the writer tests (not used by production code). */
import type { TFeature, TFeatureSet, TTable } from "@/lib/engine/types";
import { tableFromRows } from "@/lib/steps/dataset";

export const multiPolygonWithHoles = {
  type: "MultiPolygon" as const,
  coordinates: [
    [
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
      [
        [6, 6],
        [6, 8],
        [8, 8],
        [8, 6],
        [6, 6],
      ],
    ],
    [
      [
        [-20.5, -30.25],
        [-10, -30.25],
        [-10, -20],
        [-20.5, -30.25],
      ],
    ],
  ],
};

/** Features covering: unicode/space keys and values, null geometry, big ints, mixed numbers, booleans, nulls. */
export function edgeLayer(): TFeatureSet {
  const features: TFeature[] = [
    {
      type: "Feature",
      id: "a-1",
      geometry: { type: "Point", coordinates: [13.404954, 52.520008] },
      properties: { "name with space": "Zürich – 東京 🚀", count: 1, big: 2 ** 40, ratio: 1, flag: true, note: null },
    },
    {
      type: "Feature",
      geometry: multiPolygonWithHoles,
      properties: { "name with space": 'quote " comma, newline\nend', count: -(2 ** 31), big: -(2 ** 53 - 1), ratio: 0.5, flag: false },
    },
    {
      type: "Feature",
      geometry: null,
      properties: { "name with space": null, count: null, ratio: 3, flag: null, ünïcödé: "ok", mixed: 1 },
    },
    {
      type: "Feature",
      geometry: {
        type: "Polygon",
        coordinates: [
          [
            [100, 0],
            [101, 0],
            [101, 1],
            [100, 1],
            [100, 0],
          ],
        ],
      },
      properties: { count: 2 ** 31 - 1, big: 0, ratio: -2.25, mixed: "one" },
    },
  ];
  return { kind: "features", features };
}

/** A table with every column kind and the same edge cases. */
export function edgeTable(): TTable {
  return tableFromRows(
    ["id", "label", "big int", "ratio", "ok", "empty", "mixed", "ünï cödé"],
    [
      { id: 1, label: "plain", "big int": 2 ** 31, ratio: 1, ok: true, empty: null, mixed: 1, "ünï cödé": "東京" },
      { id: 2, label: 'has "quotes", commas', "big int": 9007199254740991, ratio: 0.25, ok: false, mixed: "x", "ünï cödé": "🚀 space " },
      { id: 3, label: "multi\nline\r\nvalue", "big int": -(2 ** 40), ratio: -7, ok: null, mixed: true, extra: "ignored" },
      { id: null, label: null, "big int": null, ratio: null, ok: null, empty: null, mixed: null, "ünï cödé": null },
    ],
  );
}
