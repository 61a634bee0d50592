/** Tests of the `within_distance` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { fs, runStep, P } from "@/lib/steps/test-helpers";
import { dB, places, targets } from "@/lib/steps/test-fixtures";

describe("within_distance", () => {
  it("respects the radius exactly (Turf haversine)", async () => {
    const w = await runStep(
      { type: "within_distance", source: "p", target: "t", max_km: dB, aggregations: [{ op: "count", as: "n" }] },
      { p: fs(places.slice(0, 1)), t: fs(targets) },
      "layer",
    );
    expect(P(w)[0].n).toBe(2);
    const w2 = await runStep(
      { type: "within_distance", source: "p", target: "t", max_km: dB - 1e-6, aggregations: [{ op: "count", as: "n" }] },
      { p: fs(places.slice(0, 1)), t: fs(targets) },
      "layer",
    );
    expect(P(w2)[0].n).toBe(1);
  });
});
