/** Tests of the `select` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { fs, pt, runStep, table, P, T } from "@/lib/steps/test-helpers";
import type { TFeature } from "@/lib/engine/types";
import { cities } from "@/lib/steps/test-fixtures";

describe("select", () => {
  it("select keeps, renames and orders fields; missing ones become null", async () => {
    const out = await runStep({ type: "select", source: "c", fields: [{ from: "max pop", as: "größe x" }, "name"] }, { c: fs(cities.slice(0, 2)) }, "layer");
    expect(P(out)).toEqual([
      { "größe x": 1, name: "Zürich Nord" },
      { "größe x": null, name: "B" },
    ]);
    expect(Object.keys(P(out)[0])).toEqual(["größe x", "name"]);
    const t = await runStep({ type: "select", source: "t", fields: ["b"] }, { t: table([{ a: 1, b: 2 }]) }, "table");
    expect(T(t)).toEqual({ kind: "rows", columns: ["b"], rows: [{ b: 2 }] });
  });

  it("keeps each feature's id and bbox member: its geometry is the same", async () => {
    const withBox: TFeature = { ...pt(8.5, 47.4, { name: "Zürich", pop: 1 }), id: "zh", bbox: [8.5, 47.4, 8.5, 47.4] };
    const out = await runStep({ type: "select", source: "c", fields: ["name"] }, { c: fs([withBox, pt(9, 48, { name: "B" })]) }, "layer");
    const [a, b] = (out as { features: TFeature[] }).features;
    expect(a).toEqual({ type: "Feature", id: "zh", bbox: [8.5, 47.4, 8.5, 47.4], geometry: withBox.geometry, properties: { name: "Zürich" } });
    expect(b).not.toHaveProperty("bbox");
  });
});
