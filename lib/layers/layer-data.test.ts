import { execFileSync } from "node:child_process";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { bundleEntry } from "@/lib/runs/bundle-entry";
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
  it("inflates a large layer without leaving the C library's main heap grown (each run process decodes the 135,233 cities)", () => {
    // Inflated in 16 KiB pieces (zlib's default), the 20+ MB of text came from glibc's main
    // heap, which kept ~20 MB of it for good in every run process; 1 MiB pieces are mapped
    // and returned on their own (MALLOC_MMAP_THRESHOLD_, lib/runs/process-memory.ts).
    const entry = bundleEntry(path.join(import.meta.dirname, "test-fixtures/decode-probe.ts"), "decode-probe");
    const out = JSON.parse(
      execFileSync(process.execPath, [...entry.execArgv, entry.script], { encoding: "utf8", env: { ...process.env, MALLOC_MMAP_THRESHOLD_: "131072" } }),
    ) as {
      before: number | null;
      after: number | null;
      count: number;
    };
    expect(out.count).toBe(120_000);
    if (out.before === null || out.after === null) return; // no glibc main heap here: nothing to measure
    expect(out.after - out.before).toBeLessThan(8 * 1024);
  });
});
