/** Tests of the `spatial_filter` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { box, fs, pt, runStep, P } from "@/lib/steps/test-helpers";
import { donut, donutUnicode, fiji, nullGeom, pts, ptsEdge } from "@/lib/steps/test-fixtures";
import type { TFeature } from "@/lib/steps/dataset";

const ids = (d: unknown) => P(d).map((p) => p.id);

describe("spatial_filter", () => {
  it("MultiPolygon with a hole: within excludes hole and boundary, intersects includes boundary", async () => {
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "d", predicate: "within" }, { p: fs(pts), d: fs([donut]) }, "layer"))).toEqual([1, 3]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "d" }, { p: fs(pts), d: fs([donut]) }, "layer"))).toEqual([1, 3, 4]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "d", predicate: "disjoint" }, { p: fs(pts), d: fs([donut]) }, "layer"))).toEqual([
      2, 5, 6,
    ]);
  });

  it("works against an area input, an omitted optional area, and lines/polygons", async () => {
    const area = { kind: "area" as const, geometry: box(0, 0, 3, 3).geometry as never };
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "a" }, { p: fs(pts), a: area }, "layer"))).toEqual([1, 2, 4]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "a" }, { p: fs(pts), a: null }, "layer", { optional: ["a"] }))).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    const line: TFeature = {
      type: "Feature",
      geometry: {
        type: "LineString",
        coordinates: [
          [-1, 2],
          [0.5, 2],
        ],
      },
      properties: { id: "l" },
    };
    const poly = box(2.5, 2.5, 5, 5, { id: "b" });
    expect(
      ids(await runStep({ type: "spatial_filter", source: "p", by: "a" }, { p: fs([line, poly, box(7, 7, 8, 8, { id: "x" })]), a: area }, "layer")),
    ).toEqual(["l", "b"]);
    expect(
      ids(
        await runStep(
          { type: "spatial_filter", source: "p", by: "a", predicate: "within" },
          { p: fs([line, poly, box(1, 1, 2, 2, { id: "in" })]), a: area },
          "layer",
        ),
      ),
    ).toEqual(["in"]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "a" }, { p: fs([]), a: area }, "layer"))).toEqual([]);
  });
});

describe("spatial_filter edge cases: spatial predicates with holes, null geometry and the antimeridian", () => {
  it("intersects / within / disjoint against a holed MultiPolygon and an antimeridian MultiPolygon", async () => {
    const by = fs([donutUnicode, fiji]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "b" }, { p: fs(ptsEdge), b: by }, "layer"))).toEqual([
      "in",
      "hole edge",
      "island",
      "fiji east",
      "fiji west",
    ]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "b", predicate: "within" }, { p: fs(ptsEdge), b: by }, "layer"))).toEqual([
      "in",
      "island",
      "fiji east",
      "fiji west",
    ]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "b", predicate: "disjoint" }, { p: fs(ptsEdge), b: by }, "layer"))).toEqual([
      "hole",
      "none",
    ]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "b" }, { p: fs(ptsEdge), b: fs([]) }, "layer"))).toEqual([]);
  });

  it("contains: polygons that contain a point of `by` (not in a hole, not on the boundary)", async () => {
    const polys = fs([
      { ...donutUnicode, properties: { id: "donut" } },
      { ...fiji, properties: { id: "fiji" } },
      box(-1, -1, 0.2, 0.2, { id: "small" }),
      nullGeom({ id: "none" }),
    ]);
    expect(ids(await runStep({ type: "spatial_filter", source: "g", by: "p", predicate: "contains" }, { g: polys, p: fs([pt(0.5, 0.5)]) }, "layer"))).toEqual([
      "donut",
    ]);
    expect(
      ids(await runStep({ type: "spatial_filter", source: "g", by: "p", predicate: "contains" }, { g: polys, p: fs([pt(2, 2), pt(1, 2)]) }, "layer")),
    ).toEqual([]);
    expect(
      ids(await runStep({ type: "spatial_filter", source: "g", by: "p", predicate: "contains" }, { g: polys, p: fs([pt(-179.5, -16.2)]) }, "layer")),
    ).toEqual(["fiji"]);
    expect(
      ids(await runStep({ type: "spatial_filter", source: "g", by: "p", predicate: "contains" }, { g: polys, p: fs([box(0.2, 0.2, 0.8, 0.8)]) }, "layer")),
    ).toEqual(["donut"]);
    expect(
      ids(await runStep({ type: "spatial_filter", source: "g", by: "p", predicate: "contains" }, { g: polys, p: fs([box(0.5, 0.5, 1.5, 1.5)]) }, "layer")),
    ).toEqual([]); // reaches into the hole
  });
});
