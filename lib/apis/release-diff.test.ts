import { describe, expect, it } from "vitest";
import { ZFlowVersion } from "@/lib/flows/definition";
import { releaseDiff } from "@/lib/apis/release-diff";

const v1 = ZFlowVersion.parse({
  inputs: [
    { name: "cities", kind: "layer" },
    { name: "area", kind: "area", optional: true },
  ],
  parameters: [{ name: "min_population", type: "integer", default: 0, minimum: 0 }],
  steps: [{ id: "big", type: "filter", source: "cities", where: [">=", ["get", "population"], ["var", "min_population"]] }],
  results: [{ key: "cities", kind: "layer", from: "big" }],
});

describe("releaseDiff", () => {
  it("finds nothing between a version and itself", () => {
    const d = releaseDiff(v1, v1);
    expect(d.same).toBe(true);
    expect(d.stepsChanged).toBe(false);
  });

  it("names inputs, parameters and results added, removed and changed", () => {
    const v2 = ZFlowVersion.parse({
      inputs: [{ name: "cities", kind: "layer" }],
      parameters: [
        { name: "min_population", type: "integer", default: 1000, minimum: 0 },
        { name: "label", type: "string" },
      ],
      steps: [{ id: "big", type: "filter", source: "cities", where: [">=", ["get", "population"], ["var", "min_population"]] }],
      results: [
        { key: "cities", kind: "layer", from: "big" },
        { key: "all", kind: "layer", from: "cities" },
      ],
    });
    const d = releaseDiff(v1, v2);
    expect(d.same).toBe(false);
    expect(d.inputs.removed.map((e) => e.name)).toEqual(["area"]);
    expect(d.inputs.added).toEqual([]);
    expect(d.parameters.added.map((e) => e.name)).toEqual(["label"]);
    expect(d.parameters.changed).toEqual([{ name: "min_population", detail: "default: 0 → 1000" }]);
    expect(d.results.added.map((e) => e.name)).toEqual(["all"]);
    expect(d.results.changed).toEqual([]);
  });
});
