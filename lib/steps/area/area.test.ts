/** Tests of the `area` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { area as turfArea } from "@turf/turf";
import type { MultiPolygon } from "geojson";
import { box, fs, pt, runStep, F, P } from "@/lib/steps/test-helpers";
import { BOX_KM2, donutUnicode, fiji, nullGeom } from "@/lib/steps/test-fixtures";

describe("area", () => {
  it("area, length, centroid, buffer, simplify", async () => {
    const sq = box(0, 0, 1, 1, { n: 1 });
    const a = P(await runStep({ type: "area", source: "g", field: "km2" }, { g: fs([sq, { type: "Feature", geometry: null, properties: {} }]) }, "layer"));
    expect(a[0].km2).toBeGreaterThan(12_300);
    expect(a[0].km2).toBeLessThan(12_400);
    expect(a[1].km2).toBeNull();
    const l = P(
      await runStep(
        { type: "length", source: "g" },
        {
          g: fs([
            {
              type: "Feature",
              geometry: {
                type: "LineString",
                coordinates: [
                  [0, 0],
                  [0, 1],
                ],
              },
              properties: {},
            },
          ]),
        },
        "layer",
      ),
    );
    expect(l[0].length).toBeCloseTo(111.195, 2);
    const c = F(await runStep({ type: "centroid", source: "g" }, { g: fs([sq]) }, "layer"));
    expect(c[0].geometry).toEqual({ type: "Point", coordinates: [0.5, 0.5] }); // mean of the distinct ring vertices (Turf centroid)
    const b = F(await runStep({ type: "buffer", source: "g", distance_km: 10 }, { g: fs([pt(0, 0)]) }, "layer"));
    expect(b[0].geometry?.type).toBe("Polygon");
    const s = F(
      await runStep(
        { type: "simplify", source: "g", tolerance: 0.5 },
        {
          g: fs([
            {
              type: "Feature",
              geometry: {
                type: "LineString",
                coordinates: [
                  [0, 0],
                  [1, 0.01],
                  [2, 0],
                ],
              },
              properties: {},
            },
          ]),
        },
        "layer",
      ),
    );
    expect(s[0].geometry).toEqual({
      type: "LineString",
      coordinates: [
        [0, 0],
        [2, 0],
      ],
    });
  });
});

describe("area edge cases: geometry steps on holes, null geometry and the antimeridian", () => {
  it("area: geodesic m² / km² / ha; holes subtract; antimeridian parts add up", async () => {
    const a = P(
      await runStep({ type: "area", source: "g", field: "Fläche m²", unit: "m2" }, { g: fs([box(0, 0, 1, 1), donutUnicode, fiji, nullGeom({})]) }, "layer"),
    );
    expect(a[0]!["Fläche m²"]).toBeCloseTo(BOX_KM2 * 1e6, -3);
    const parts = (c: number[][][]) => turfArea({ type: "Polygon", coordinates: c });
    const d = donutUnicode.geometry as MultiPolygon;
    expect(a[1]!["Fläche m²"]).toBeCloseTo(parts(d.coordinates[0]!.slice(0, 1)) - parts(d.coordinates[0]!.slice(1)) + parts(d.coordinates[1]!), -2);
    expect((a[1]!["Fläche m²"] as number) / 1e6 / BOX_KM2).toBeCloseTo(12.96, 1); // 16 - 4 + 1 squares, the island at 10° N a little smaller
    expect((a[2]!["Fläche m²"] as number) / 1e6).toBeCloseTo((2 * turfArea(box(0, -17, 1, -16).geometry!)) / 1e6, 3);
    expect(a[3]!["Fläche m²"]).toBeNull();
    const ha = P(await runStep({ type: "area", source: "g", unit: "ha" }, { g: fs([box(0, 0, 1, 1)]) }, "layer"));
    expect(ha[0]!.area).toBeCloseTo(BOX_KM2 * 100, -1);
  });
});
