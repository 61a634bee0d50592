/** Tests of the `clip` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { area as turfArea } from "@turf/turf";
import type { Polygon } from "geojson";
import { box, fs, pt, runStep, F } from "@/lib/steps/test-helpers";
import { donutUnicode, nullGeom } from "@/lib/steps/test-fixtures";

describe("clip edge cases: spatial predicates with holes, null geometry and the antimeridian", () => {
  it("clip cuts a holed MultiPolygon to an area and drops null geometry", async () => {
    const area = { kind: "area" as const, geometry: box(0, 0, 2, 2).geometry as Polygon };
    const out = F(await runStep({ type: "clip", source: "g", by: "a" }, { g: fs([donutUnicode, nullGeom({ id: 1 }), pt(5, 5)]), a: area }, "layer"));
    expect(out).toHaveLength(1);
    // [0,2]² minus the hole's corner [1,2]²: three of four unit squares.
    expect(turfArea(out[0]!.geometry!) / turfArea(box(0, 0, 1, 1).geometry!)).toBeCloseTo(3, 2);
    expect(F(await runStep({ type: "clip", source: "g", by: "a" }, { g: fs([]), a: area }, "layer"))).toEqual([]);
  });
});
