/** Tests of the `nearest` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { distance } from "@turf/turf";
import { fs, pt, runStep, R, P, T } from "@/lib/steps/test-helpers";
import { DEG_KM, dB, nullGeom, places, targets } from "@/lib/steps/test-fixtures";

const dA = distance([0, 0], [0, 0.1]);

const placesEdge = [pt(179.99, 0, { "Ort ✓": "east" }), pt(-179.99, 0, { "Ort ✓": "west" }), nullGeom({ "Ort ✓": "none" })];

const targetsEdge = [pt(-179.995, 0, { name: "Ostwärts", pop: 10 }), pt(170, 0, { name: "far", pop: 1 })];

const dEast = distance([179.99, 0], [-179.995, 0]);

describe("nearest", () => {
  it("nearest, within_distance, distance_pairs", async () => {
    const n = await runStep(
      { type: "nearest", source: "p", target: "t", max_km: 30, fields: [{ from: "name", as: "nearest" }] },
      { p: fs(places), t: fs(targets) },
      "layer",
    );
    expect(P(n)).toEqual([
      { id: "p1", nearest: "A", distance_km: dA },
      { id: "far", nearest: null, distance_km: null },
    ]);
    const w = await runStep(
      {
        type: "within_distance",
        source: "p",
        target: "t",
        max_km: 30,
        aggregations: [
          { op: "count", as: "n" },
          { op: "sum", field: "population", as: "pop" },
        ],
      },
      { p: fs(places), t: fs(targets) },
      "layer",
    );
    expect(P(w)).toEqual([
      { id: "p1", n: 2, pop: 30 },
      { id: "far", n: 0, pop: 0 },
    ]);
    const pairs = await runStep(
      { type: "distance_pairs", source: "p", target: "t", max_km: 30, source_fields: [{ from: "id", as: "place" }], target_fields: ["name"] },
      { p: fs(places), t: fs(targets) },
      "table",
    );
    expect(T(pairs)).toEqual({
      kind: "rows",
      columns: ["place", "name", "distance_km"],
      rows: [
        { place: "p1", name: "A", distance_km: dA },
        { place: "p1", name: "B", distance_km: dB },
      ],
    });
  });
});

describe("nearest edge cases: distance steps across the antimeridian, with empty targets and null geometry", () => {
  // 0.015° = 1.668 km across the line
  it("nearest / within_distance / distance_pairs see targetsEdge on the other side", async () => {
    expect(dEast).toBeCloseTo(0.015 * DEG_KM, 6);
    const n = await runStep(
      { type: "nearest", source: "p", target: "t", max_km: 10, fields: [{ from: "name", as: "nächste" }] },
      { p: fs(placesEdge), t: fs(targetsEdge) },
      "layer",
    );
    expect(P(n)).toEqual([
      { "Ort ✓": "east", nächste: "Ostwärts", distance_km: dEast },
      { "Ort ✓": "west", nächste: "Ostwärts", distance_km: distance([-179.99, 0], [-179.995, 0]) },
      { "Ort ✓": "none", nächste: null, distance_km: null },
    ]);
    const w = await runStep(
      {
        type: "within_distance",
        source: "p",
        target: "t",
        max_km: 10,
        aggregations: [
          { op: "count", as: "n" },
          { op: "mean", field: "pop", as: "ø" },
        ],
      },
      { p: fs(placesEdge), t: fs(targetsEdge) },
      "layer",
    );
    expect(P(w).map((p) => [p.n, p["ø"]])).toEqual([
      [1, 10],
      [1, 10],
      [0, null],
    ]);
    const pairs = await runStep(
      { type: "distance_pairs", source: "p", target: "t", max_km: 1200, source_fields: ["Ort ✓"], target_fields: ["name"] },
      { p: fs(placesEdge), t: fs(targetsEdge) },
      "table",
    );
    expect(R(pairs).map((r) => [r["Ort ✓"], r.name])).toEqual([
      ["east", "Ostwärts"],
      ["east", "far"],
      ["west", "Ostwärts"],
      ["west", "far"],
    ]);
  });

  it("empty targetsEdge give nulls and zero counts; empty sources give nothing", async () => {
    const n = await runStep({ type: "nearest", source: "p", target: "t", max_km: 10, fields: ["name"] }, { p: fs(placesEdge.slice(0, 1)), t: fs([]) }, "layer");
    expect(P(n)).toEqual([{ "Ort ✓": "east", name: null, distance_km: null }]);
    const w = await runStep(
      { type: "within_distance", source: "p", target: "t", max_km: 10, aggregations: [{ op: "count", as: "n" }] },
      { p: fs(placesEdge.slice(0, 1)), t: fs([nullGeom({})]) },
      "layer",
    );
    expect(P(w)[0]!.n).toBe(0);
    expect(R(await runStep({ type: "distance_pairs", source: "p", target: "t", max_km: 10 }, { p: fs([]), t: fs(targetsEdge) }, "table"))).toEqual([]);
  });
});
