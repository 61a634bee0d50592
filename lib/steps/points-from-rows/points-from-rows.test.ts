/** Tests of the `points_from_rows` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { runStep, table, F } from "@/lib/steps/test-helpers";

describe("points_from_rows", () => {
  it("points_from_rows makes points, null geometry for bad coordinates", async () => {
    const out = await runStep(
      { type: "points_from_rows", source: "t", lon: "x", lat: "y" },
      {
        t: table([
          { id: 1, x: 1, y: 2 },
          { id: 2, x: "3.5", y: "4" },
          { id: 3, x: 200, y: 0 },
          { id: 4, x: null, y: 1 },
        ]),
      },
      "layer",
    );
    expect(F(out).map((f) => f.geometry)).toEqual([{ type: "Point", coordinates: [1, 2] }, { type: "Point", coordinates: [3.5, 4] }, null, null]);
  });
  it("reads coordinates from decimal text only: not hex, octal, binary, Infinity, padded or empty text", async () => {
    const bad = ["0x10", "0o17", "0b1", "Infinity", " 16", ""];
    const out = await runStep(
      { type: "points_from_rows", source: "t", lon: "x", lat: "y" },
      { t: table([{ x: "16", y: "1" }, ...bad.map((x) => ({ x, y: "1" }))]) },
      "layer",
    );
    expect(F(out).map((f) => f.geometry)).toEqual([{ type: "Point", coordinates: [16, 1] }, ...bad.map(() => null)]);
  });
});

describe("points_from_rows edge cases: attribute steps with unicode, spaces, nulls and empty input", () => {
  it("points_from_rows reads unicode column names and numeric strings; bad values give null geometry", async () => {
    const out = await runStep(
      { type: "points_from_rows", source: "t", lon: "Länge °", lat: "Breite °" },
      {
        t: table([
          { "Länge °": 179.999, "Breite °": -16.5 },
          { "Länge °": "-180", "Breite °": "90" },
          { "Länge °": 10, "Breite °": 91 },
          { "Länge °": "", "Breite °": 0 },
        ]),
      },
      "layer",
    );
    expect(F(out).map((f) => f.geometry)).toEqual([{ type: "Point", coordinates: [179.999, -16.5] }, { type: "Point", coordinates: [-180, 90] }, null, null]);
    expect(F(await runStep({ type: "points_from_rows", source: "t", lon: "x", lat: "y" }, { t: table([], ["x", "y"]) }, "layer"))).toEqual([]);
  });
});
