/** Tests of the `centroid` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import type { MultiPolygon } from "geojson";
import { box, fs, runStep, F } from "@/lib/steps/test-helpers";
import { donutUnicode, nullGeom } from "@/lib/steps/test-fixtures";

describe("centroid edge cases: geometry steps on holes, null geometry and the antimeridian", () => {
  it("centroid and simplify keep null geometry; simplify keeps holes", async () => {
    const c = F(await runStep({ type: "centroid", source: "g" }, { g: fs([box(0, 0, 2, 2), nullGeom({ "a b": "ü" })]) }, "layer"));
    expect(c[0]!.geometry).toEqual({ type: "Point", coordinates: [1, 1] });
    expect(c[1]).toMatchObject({ geometry: null, properties: { "a b": "ü" } });
    const pof = F(await runStep({ type: "centroid", source: "g", method: "point_on_feature" }, { g: fs([donutUnicode]) }, "layer"))[0]!;
    expect(pof.geometry?.type).toBe("Point");
    const s = F(await runStep({ type: "simplify", source: "g", tolerance: 0.01 }, { g: fs([donutUnicode, nullGeom({})]) }, "layer"));
    expect((s[0]!.geometry as MultiPolygon).coordinates[0]).toHaveLength(2); // outer ring and hole
    expect(s[1]!.geometry).toBeNull();
  });
});
