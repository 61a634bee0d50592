/** Tests of the `dissolve` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { area as turfArea } from "@turf/turf";
import { box, fs, pt, runStep, F } from "@/lib/steps/test-helpers";
import { BOX_KM2, donutUnicode, nullGeom } from "@/lib/steps/test-fixtures";

describe("dissolve", () => {
  it("dissolve and clip", async () => {
    const d = F(
      await runStep(
        { type: "dissolve", source: "g", field: "k" },
        { g: fs([box(0, 0, 1, 1, { k: "a" }), box(1, 0, 2, 1, { k: "a" }), box(5, 5, 6, 6, { k: "b" })]) },
        "layer",
      ),
    );
    expect(d.map((f) => f.properties)).toEqual([{ k: "a" }, { k: "b" }]);
    expect(d[0].geometry?.type).toBe("Polygon");
    const c = F(
      await runStep(
        { type: "clip", source: "g", by: "a" },
        { g: fs([box(0, 0, 2, 2, { id: 1 }), pt(0.5, 0.5, { id: 2 }), pt(3, 3, { id: 3 })]), a: { kind: "area", geometry: box(1, 1, 4, 4).geometry as never } },
        "layer",
      ),
    );
    expect(c.map((f) => f.properties.id)).toEqual([1, 3]);
    expect(c[0].geometry?.type).toBe("Polygon");
  });
});

describe("dissolve edge cases: geometry steps on holes, null geometry and the antimeridian", () => {
  it("dissolve by a unicode field: touching boxes merge, null geometry is skipped, empty input gives nothing", async () => {
    const d = F(
      await runStep(
        { type: "dissolve", source: "g", field: "Kanton" },
        {
          g: fs([
            box(0, 0, 1, 1, { Kanton: "Zürich Ost" }),
            box(1, 0, 2, 1, { Kanton: "Zürich Ost" }),
            box(5, 5, 6, 6, { Kanton: "Genève" }),
            nullGeom({ Kanton: "Zürich Ost" }),
          ]),
        },
        "layer",
      ),
    );
    expect(d.map((f) => f.properties)).toEqual([{ Kanton: "Zürich Ost" }, { Kanton: "Genève" }]);
    expect(turfArea(d[0]!.geometry!) / 1e6 / BOX_KM2).toBeCloseTo(2, 3);
    expect(F(await runStep({ type: "dissolve", source: "g" }, { g: fs([]) }, "layer"))).toEqual([]);
    const all = F(await runStep({ type: "dissolve", source: "g" }, { g: fs([donutUnicode, box(1, 1, 3, 3)]) }, "layer"));
    expect(turfArea(all[0]!.geometry!) / 1e6 / BOX_KM2).toBeCloseTo(16 + 0.98, 1); // the box fills the hole
  });
});
