/** The format registry: every listed format has its folder and writer, and the lists the API uses are derived from it. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { encodeResult, type TEncodableResult } from "./encode-result";
import { DEFAULT_FORMAT, FORMAT_NAMES, FORMATS, FORMATS_BY_KIND, formatFitsKind, isResultFormat, ZResultFormat } from "./registry";
import { edgeLayer, edgeTable } from "./test-fixtures";

describe("format registry", () => {
  it("derives names, per-kind lists and defaults from the one list", () => {
    expect(FORMAT_NAMES).toEqual(["geojson", "geoparquet", "csv", "parquet"]);
    expect(FORMATS_BY_KIND).toEqual({ layer: ["geojson", "geoparquet"], table: ["csv", "parquet"] });
    expect(DEFAULT_FORMAT).toEqual({ layer: "geojson", table: "csv" });
    expect(ZResultFormat.options).toEqual(FORMAT_NAMES);
    expect(isResultFormat("parquet")).toBe(true);
    expect(isResultFormat("toString")).toBe(false);
    expect(formatFitsKind("layer", "csv")).toBe(false);
  });

  it("has one folder per format, with its definition and writer", () => {
    for (const f of FORMATS) {
      for (const file of ["definition.ts", "write.ts"]) expect(fs.existsSync(path.join(__dirname, f.name, file)), `${f.name}/${file}`).toBe(true);
    }
  });

  it("writes every kind each format serves, with the definition's media type and extension", async () => {
    for (const f of FORMATS) {
      for (const kind of f.kinds) {
        const result: TEncodableResult = kind === "layer" ? { kind, data: edgeLayer() } : { kind, data: edgeTable() };
        const file = await encodeResult(result, f.name);
        expect(file.body.byteLength).toBeGreaterThan(0);
        expect([file.mediaType, file.extension]).toEqual([f.mediaType, f.extension]);
        expect(kind === "layer" ? file.featureCount : file.rowCount).toBeGreaterThan(0);
      }
    }
  });
});
