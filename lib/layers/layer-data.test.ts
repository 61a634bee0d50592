import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeLayerData, encodeLayerData } from "./layer-data";
import type { TFeatureSet, TTable } from "@/lib/engine/types";

const features: TFeatureSet = {
  kind: "features",
  features: [
    { type: "Feature", geometry: { type: "Point", coordinates: [8.5, 47.4] }, properties: { name: "Zürich\nline break", "a,b": "東京" } },
    { type: "Feature", geometry: null, properties: {} },
  ],
};
const table: TTable = {
  kind: "rows",
  columns: ["id", "name ✓"],
  rows: [
    { id: 1, "name ✓": "x,\ny" },
    { id: 2, "name ✓": null },
  ],
};

describe("layer data", () => {
  it("round-trips features and tables, including empty ones and text with line breaks", () => {
    expect(decodeLayerData("features", encodeLayerData(features))).toEqual(features);
    expect(decodeLayerData("table", encodeLayerData(table))).toEqual(table);
    expect(decodeLayerData("features", encodeLayerData({ kind: "features", features: [] }))).toEqual({ kind: "features", features: [] });
    expect(decodeLayerData("table", encodeLayerData({ kind: "rows", columns: ["a"], rows: [] }))).toEqual({ kind: "rows", columns: ["a"], rows: [] });
  });
  it("writes one valid JSON document, one item per line", async () => {
    const { gunzipSync } = await import("node:zlib");
    const text = gunzipSync(encodeLayerData(features)).toString("utf8");
    expect(JSON.parse(text).features).toEqual(features.features);
    expect(text.split("\n")).toHaveLength(4);
  });
  it("still reads content written as one line", () => {
    const old = gzipSync(JSON.stringify({ type: "FeatureCollection", features: features.features }));
    expect(decodeLayerData("features", old)).toEqual(features);
    const oldTable = gzipSync(JSON.stringify({ columns: table.columns, rows: table.rows }));
    expect(decodeLayerData("table", oldTable)).toEqual(table);
  });
});
