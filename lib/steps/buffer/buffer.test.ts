/** Tests of the `buffer` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { area as turfArea, distance } from "@turf/turf";
import type { MultiPolygon, Polygon } from "geojson";
import { fs, pt, runStep, F } from "@/lib/steps/test-helpers";
import { nullGeom } from "@/lib/steps/test-fixtures";

describe("buffer edge cases: geometry steps on holes, null geometry and the antimeridian", () => {
  it("buffer: vertices at the distance; null geometry stays null; across the antimeridian it is split", async () => {
    const b = F(await runStep({ type: "buffer", source: "g", distance_km: 10 }, { g: fs([pt(8, 47), nullGeom({ k: 1 })]) }, "layer"));
    const ring = (b[0]!.geometry as Polygon).coordinates[0]!;
    for (const p of ring) expect(distance([8, 47], p)).toBeCloseTo(10, 1);
    expect(b[1]).toMatchObject({ geometry: null, properties: { k: 1 } });
    const am = F(await runStep({ type: "buffer", source: "g", distance_km: 10 }, { g: fs([pt(179.99, 0)]) }, "layer"))[0]!.geometry as MultiPolygon;
    expect(am.type).toBe("MultiPolygon");
    const xs = am.coordinates.flat(2).map((p) => p[0]!);
    expect(xs.every((x) => x > 179.8 || x < -179.8)).toBe(true); // no globe-spanning ring
    const total = am.coordinates.reduce((s, c) => s + turfArea({ type: "Polygon", coordinates: c }), 0);
    const plain = turfArea(F(await runStep({ type: "buffer", source: "g", distance_km: 10 }, { g: fs([pt(0, 0)]) }, "layer"))[0]!.geometry!);
    expect(total / plain).toBeCloseTo(1, 2);
    expect(F(await runStep({ type: "buffer", source: "g", distance_km: 10 }, { g: fs([]) }, "layer"))).toEqual([]);
  });
});
