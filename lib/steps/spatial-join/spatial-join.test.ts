/** Tests of the `spatial_join` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { box, fs, pt, runStep, F, P } from "@/lib/steps/test-helpers";
import { donut, donutUnicode, fiji, nullGeom, ptsEdge } from "@/lib/steps/test-fixtures";
import type { TFeature } from "@/lib/steps/dataset";

describe("spatial_join", () => {
  it("counts and aggregates points per polygon (holes, MultiPolygon, empty polygons get 0/null)", async () => {
    const pts = [
      pt(0.5, 0.5, { v: 1 }),
      pt(2, 2, { v: 100 }),
      pt(10.5, 10.5, { v: 5 }),
      pt(30, 30, { v: 9 }),
      pt(30.5, 30.5, { v: "x" }),
      { type: "Feature", geometry: null, properties: { v: 1 } } as TFeature,
    ];
    const aggs = [
      { op: "count", as: "n" },
      { op: "sum", field: "v", as: "s" },
      { op: "mean", field: "v", as: "m" },
      { op: "max", field: "v", as: "mx" },
    ];
    const out = await runStep(
      { type: "spatial_join", points: "p", polygons: "g", aggregations: aggs },
      { p: fs(pts), g: fs([donut, box(29, 29, 31, 31, { name: "Sq" }), box(50, 50, 51, 51, { name: "Empty" })]) },
      "layer",
    );
    expect(P(out)).toEqual([
      { name: "Donut land", n: 2, s: 6, m: 3, mx: 5 },
      { name: "Sq", n: 2, s: 9, m: 9, mx: 9 },
      { name: "Empty", n: 0, s: 0, m: null, mx: null },
    ]);
    expect(F(out)[0].geometry).toBe(donut.geometry);
  });

  it("handles empty inputs", async () => {
    expect(
      P(
        await runStep(
          { type: "spatial_join", points: "p", polygons: "g", aggregations: [{ op: "count", as: "n" }] },
          { p: fs([]), g: fs([box(0, 0, 1, 1)]) },
          "layer",
        ),
      ),
    ).toEqual([{ n: 0 }]);
    expect(
      F(
        await runStep(
          { type: "spatial_join", points: "p", polygons: "g", aggregations: [{ op: "count", as: "n" }] },
          { p: fs([pt(0, 0)]), g: fs([]) },
          "layer",
        ),
      ),
    ).toEqual([]);
  });
});

describe("spatial_join edge cases: spatial predicates with holes, null geometry and the antimeridian", () => {
  it("spatial_join counts points on both sides of the antimeridian and none in holes", async () => {
    const aggs = [
      { op: "count", as: "n" },
      { op: "sum", field: "v", as: "Σ v" },
      { op: "min", field: "v", as: "min" },
      { op: "max", field: "v", as: "max" },
      { op: "mean", field: "v", as: "mean" },
    ];
    const points = fs(ptsEdge.map((p, i) => ({ ...p, properties: { ...p.properties, v: i } })));
    const out = await runStep(
      { type: "spatial_join", points: "p", polygons: "g", aggregations: aggs },
      { p: points, g: fs([donutUnicode, fiji, nullGeom({ name: "no shape" })]) },
      "layer",
    );
    expect(P(out)).toEqual([
      { "Name des Lands": "Dönut Länd", n: 3, "Σ v": 0 + 2 + 3, min: 0, max: 3, mean: 5 / 3 }, // "in", "hole edge" (boundary counts), "island"
      { name: "Viti Levu ∓180", n: 2, "Σ v": 4 + 5, min: 4, max: 5, mean: 4.5 },
      { name: "no shape", n: 0, "Σ v": 0, min: null, max: null, mean: null },
    ]);
  });
});
