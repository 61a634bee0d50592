import { describe, expect, it } from "vitest";
import type { TFeature } from "@/lib/engine/types";
import { LayerSummary } from "./summary";

const f = (geometry: TFeature["geometry"]): TFeature => ({ type: "Feature", properties: {}, geometry });

describe("LayerSummary", () => {
  it("gathers the bbox over every position and the distinct geometry types, collections included", () => {
    const s = new LayerSummary();
    s.add(f({ type: "Point", coordinates: [8.5, 47.3] }));
    s.add(f(null));
    s.add(
      f({
        type: "Polygon",
        coordinates: [
          [
            [6, 46],
            [7, 46],
            [7, 45.5, 300],
            [6, 46],
          ],
        ],
      }),
    );
    s.add(
      f({
        type: "GeometryCollection",
        geometries: [
          {
            type: "LineString",
            coordinates: [
              [-1, 50],
              [0, 51],
            ],
          },
          { type: "Point", coordinates: [2, 3] },
        ],
      }),
    );
    s.add(f({ type: "MultiPoint", coordinates: [] }));
    expect(s.bbox()).toEqual([-1, 3, 8.5, 51]);
    expect(s.geometryTypes()).toEqual(["GeometryCollection", "LineString", "MultiPoint", "Point", "Polygon"]);
    expect(s.count).toBe(5);
  });

  it("has no bbox and no types before a geometry with positions", () => {
    const s = new LayerSummary();
    expect(s.bbox()).toEqual([]);
    s.add(f(null));
    expect(s.bbox()).toEqual([]);
    expect(s.geometryTypes()).toEqual([]);
  });
});
