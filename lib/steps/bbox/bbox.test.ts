/** Tests of the `bbox` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { box, fs, pt, runStep, F, P } from "@/lib/steps/test-helpers";
import { cities, donut, nullGeom } from "@/lib/steps/test-fixtures";

const ring = (w: number, s: number, e: number, n: number) => [
  [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ],
];

describe("bbox", () => {
  it("replaces each geometry by its box, keeping properties and null geometry", async () => {
    const out = await runStep({ type: "bbox", source: "d" }, { d: fs([donut, pt(1, 2, { id: "p" }), nullGeom({ id: "none" })]) }, "layer");
    // The donut is [0,4]² with a hole plus [10,11]²: one box from (0,0) to (11,11).
    expect(F(out).map((f) => f.geometry)).toEqual([
      { type: "Polygon", coordinates: ring(0, 0, 11, 11) },
      { type: "Polygon", coordinates: ring(1, 2, 1, 2) },
      null,
    ]);
    expect(P(out)).toEqual([donut.properties, { id: "p" }, { id: "none" }]);
  });

  it("mode all: one box around every geometry, none for an empty layer; the mode may come from a parameter", async () => {
    const all = await runStep({ type: "bbox", source: "c", mode: { param: "m" } }, { c: fs(cities) }, "layer", {
      parameters: [{ name: "m", type: "enum", values: ["each", "all"], default: "each" }],
      params: { m: "all" },
    });
    // cities: points at (0.5,0.5), (1.5,0.5), (5,5), (0.2,0.2) and one without geometry.
    expect(F(all)).toEqual([{ type: "Feature", geometry: { type: "Polygon", coordinates: ring(0.2, 0.2, 5, 5) }, properties: {} }]);
    expect(F(await runStep({ type: "bbox", source: "c", mode: "all" }, { c: fs([nullGeom({})]) }, "layer"))).toEqual([]);
    expect(F(await runStep({ type: "bbox", source: "c", mode: "all" }, { c: fs([box(-3, -2, -1, 0), box(2, 1, 3, 5)]) }, "layer"))[0].geometry).toEqual({
      type: "Polygon",
      coordinates: ring(-3, -2, 3, 5),
    });
  });
});
