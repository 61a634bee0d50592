/** Tests of the `length` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { distance } from "@turf/turf";
import type { MultiPolygon } from "geojson";
import { box, fs, runStep, P } from "@/lib/steps/test-helpers";
import { DEG_KM, donutUnicode, nullGeom } from "@/lib/steps/test-fixtures";
import type { TFeature } from "@/lib/steps/dataset";

describe("length edge cases: geometry steps on holes, null geometry and the antimeridian", () => {
  it("length: geodesic m; a line across the antimeridian is 1°, a polygon's perimeter counts its holes", async () => {
    const line: TFeature = {
      type: "Feature",
      geometry: {
        type: "LineString",
        coordinates: [
          [179.5, 0],
          [-179.5, 0],
        ],
      },
      properties: {},
    };
    const l = P(await runStep({ type: "length", source: "g", field: "Länge", unit: "m" }, { g: fs([line, nullGeom({}), box(0, 0, 1, 1)]) }, "layer"));
    expect(l[0]!["Länge"]).toBeCloseTo(DEG_KM * 1000, 3);
    expect(l[1]!["Länge"]).toBeNull();
    expect(l[2]!["Länge"]).toBeCloseTo((3 * DEG_KM + distance([0, 1], [1, 1])) * 1000, 3);
    const withHole = P(
      await runStep(
        { type: "length", source: "g" },
        { g: fs([{ ...donutUnicode, geometry: { type: "Polygon", coordinates: (donutUnicode.geometry as MultiPolygon).coordinates[0]! } }]) },
        "layer",
      ),
    );
    expect(withHole[0]!.length).toBeGreaterThan(23 * DEG_KM); // 16° outer + 8° hole, a little less off the equator
  });
});
