/** Tests of the `simplify` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { fs, runStep, F } from "@/lib/steps/test-helpers";
import { nullGeom } from "@/lib/steps/test-fixtures";
import type { TFeature } from "@/lib/steps/dataset";

// A 2°×2° square with an extra vertex 0.001° below the middle of its bottom edge.
const square: TFeature = {
  type: "Feature",
  geometry: {
    type: "Polygon",
    coordinates: [
      [
        [0, 0],
        [1, -0.001],
        [2, 0],
        [2, 2],
        [0, 2],
        [0, 0],
      ],
    ],
  },
  properties: { name: "sq" },
};

describe("simplify", () => {
  it("drops a vertex closer than the tolerance to the simplified edge, keeps properties and null geometry, never mutates", async () => {
    const before = structuredClone(square);
    const out = await runStep({ type: "simplify", source: "src", tolerance: 0.01 }, { src: fs([square, nullGeom({ name: "none" })]) }, "layer");
    expect(F(out)[0].geometry).toEqual({
      type: "Polygon",
      coordinates: [
        [
          [0, 0],
          [2, 0],
          [2, 2],
          [0, 2],
          [0, 0],
        ],
      ],
    });
    expect(F(out).map((f) => f.properties)).toEqual([{ name: "sq" }, { name: "none" }]);
    expect(F(out)[1].geometry).toBeNull();
    expect(square).toEqual(before);
  });

  it("with tolerance 0 keeps every vertex", async () => {
    const out = await runStep({ type: "simplify", source: "src", tolerance: 0, high_quality: true }, { src: fs([square]) }, "layer");
    expect(F(out)[0].geometry).toEqual(square.geometry);
  });
});
