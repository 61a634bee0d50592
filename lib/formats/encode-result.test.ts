import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { encodeResult } from "./encode-result";
import { FormatMismatchError } from "./errors";
import { edgeLayer, edgeTable } from "./test-fixtures";
import { readParquet } from "./test-support";
import { formatFitsKind, type TResultFormat } from "./registry";
import { tableFromRows } from "@/lib/steps/dataset";

describe("encodeResult", () => {
  it("encodes a layer as GeoJSON and GeoParquet", async () => {
    const geojson = await encodeResult({ kind: "layer", data: edgeLayer() }, "geojson");
    expect(geojson).toMatchObject({ featureCount: 4, mediaType: "application/geo+json", extension: "geojson" });
    expect(geojson.rowCount).toBeUndefined();
    expect(JSON.parse(Buffer.from(geojson.body).toString("utf8")).features).toHaveLength(4);

    const geoparquet = await encodeResult({ kind: "layer", data: edgeLayer() }, "geoparquet");
    expect(geoparquet).toMatchObject({ featureCount: 4, mediaType: "application/vnd.apache.parquet", extension: "parquet" });
    expect((await readParquet(geoparquet.body)).rows).toHaveLength(4);
  });

  it("encodes a table as CSV and Parquet", async () => {
    const csv = await encodeResult({ kind: "table", data: edgeTable() }, "csv");
    expect(csv).toMatchObject({ rowCount: 4, mediaType: "text/csv; charset=utf-8", extension: "csv" });
    expect(csv.featureCount).toBeUndefined();
    expect(parse(Buffer.from(csv.body).toString("utf8"))).toHaveLength(5);

    const parquet = await encodeResult({ kind: "table", data: edgeTable() }, "parquet");
    expect(parquet).toMatchObject({ rowCount: 4, mediaType: "application/vnd.apache.parquet", extension: "parquet" });
    expect((await readParquet(parquet.body)).rows).toHaveLength(4);
  });

  it("streams every format to a sink in chunks that make up the same file", async () => {
    // Big enough for several ~1 MiB chunks in every format.
    const rows = Array.from({ length: 60_000 }, (_, i) => ({ id: i, name: `place ${(i * 2654435761) % 1e9} "quoted", text`, value: Math.sin(i) * i }));
    const table = tableFromRows(["id", "name", "value"], rows);
    const features = rows.map((p, i) => ({
      type: "Feature" as const,
      geometry: { type: "Point" as const, coordinates: [(i % 360) - 180, (i % 180) - 90] },
      properties: p,
    }));
    const results = [
      { result: { kind: "table" as const, data: table }, formats: ["csv", "parquet"] as const },
      { result: { kind: "layer" as const, data: { kind: "features" as const, features } }, formats: ["geojson", "geoparquet"] as const },
    ];
    for (const { result, formats } of results) {
      for (const format of formats) {
        const whole = await encodeResult(result, format);
        const chunks: Uint8Array[] = [];
        const streamed = await encodeResult(result, format, { sink: (c) => chunks.push(c) });
        expect(streamed.body.byteLength, format).toBe(0);
        expect(chunks.length, format).toBeGreaterThan(1);
        expect(Buffer.compare(Buffer.concat(chunks), Buffer.from(whole.body)), format).toBe(0);
      }
    }
  });

  it("rejects formats that do not fit the kind or do not exist", async () => {
    await expect(encodeResult({ kind: "layer", data: edgeLayer() }, "csv")).rejects.toThrow(FormatMismatchError);
    await expect(encodeResult({ kind: "table", data: edgeTable() }, "geojson")).rejects.toThrow(FormatMismatchError);
    await expect(encodeResult({ kind: "table", data: edgeTable() }, "xlsx" as TResultFormat)).rejects.toThrow(FormatMismatchError);
    expect(formatFitsKind("layer", "geoparquet")).toBe(true);
    expect(formatFitsKind("table", "geoparquet")).toBe(false);
  });

  it("honours an aborted signal", async () => {
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    for (const [kind, format] of [
      ["layer", "geoparquet"],
      ["table", "csv"],
      ["table", "parquet"],
    ] as const) {
      const result = kind === "layer" ? { kind, data: edgeLayer() } : { kind, data: edgeTable() };
      await expect(encodeResult(result, format, { signal: controller.signal })).rejects.toThrow("cancelled");
    }
  });
});
