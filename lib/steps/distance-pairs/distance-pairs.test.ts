/** Tests of the `distance_pairs` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { fs, pt, R, runStep } from "@/lib/steps/test-helpers";
import { DEG_KM, nullGeom } from "@/lib/steps/test-fixtures";

describe("distance_pairs", () => {
  it("one row per pair within max_km, nearest first per source, with the chosen fields", async () => {
    // Along a meridian 1° is DEG_KM: targets at 0.5° (55.6 km), 1° (111.2 km) and 3° (333.6 km) from p1.
    const sources = fs([pt(0, 0, { id: "p1" }), nullGeom({ id: "none" }), pt(0, 10, { id: "far" })]);
    const targets = fs([pt(0, 1, { name: "one" }), pt(0, 3, { name: "three" }), pt(0, 0.5, { name: "half" })]);
    const out = await runStep(
      {
        type: "distance_pairs",
        source: "src",
        target: "t",
        max_km: 200,
        source_fields: [{ from: "id", as: "place" }],
        target_fields: ["name"],
        distance_field: "km",
      },
      { src: sources, t: targets },
      "table",
    );
    expect(out.kind).toBe("rows");
    if (out.kind !== "rows") return;
    expect(out.columns).toEqual(["place", "name", "km"]);
    const rows = R(out);
    expect(rows.map((r) => [r.place, r.name])).toEqual([
      ["p1", "half"],
      ["p1", "one"],
    ]);
    expect(rows[0].km as number).toBeCloseTo(0.5 * DEG_KM, 6);
    expect(rows[1].km as number).toBeCloseTo(DEG_KM, 6);
  });
});
