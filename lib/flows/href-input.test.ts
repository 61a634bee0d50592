import { describe, expect, it } from "vitest";
import { validateFlowVersion, type TFlowVersion } from "./definition";
import { formatOfMediaType, formatOfUrl, hrefFormat } from "./href-input";
import { callerDataToDataset, parseRunRequest, runRequestJsonSchema } from "./run-request";

const flow = (() => {
  const r = validateFlowVersion({
    inputs: [
      { name: "places", kind: "layer" },
      { name: "rows", kind: "table", optional: true },
      { name: "area", kind: "area", optional: true },
    ],
    steps: [],
    results: [
      { key: "out", kind: "layer", from: "places" },
      { key: "rows_out", kind: "table", from: "rows" },
      { key: "area_out", kind: "layer", from: "area" },
    ],
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.flow as TFlowVersion;
})();

describe("the format of a file by reference", () => {
  it("takes a specific Content-Type first, then the declared type, then the extension", () => {
    expect(hrefFormat("text/csv; charset=utf-8", "application/geo+json", "https://x.test/a.parquet")).toBe("csv");
    expect(hrefFormat("application/octet-stream", "application/geo+json-seq", "https://x.test/a.parquet")).toBe("geojsonseq");
    expect(hrefFormat("text/plain", undefined, "https://x.test/data/a.parquet?sig=1")).toBe("geoparquet");
    expect(hrefFormat(null, undefined, "https://x.test/download")).toBeNull();
  });

  it("knows the media types and extensions of each format", () => {
    expect(formatOfMediaType("application/geo+json")).toBe("geojson");
    expect(formatOfMediaType("Application/JSON")).toBe("geojson");
    expect(formatOfMediaType("application/vnd.apache.parquet")).toBe("geoparquet");
    expect(formatOfMediaType("application/octet-stream")).toBeNull();
    expect(formatOfUrl("https://x.test/cities.geojsonl")).toBe("geojsonseq");
    expect(formatOfUrl("https://x.test/cities.CSV")).toBe("csv");
    expect(formatOfUrl("https://x.test/v1.2/cities")).toBeNull();
  });
});

describe("the href form of an input", () => {
  it("is accepted for layer and table inputs, with an optional media type", () => {
    const r = parseRunRequest(flow, {
      inputs: { places: { href: "https://data.test/places.geojson" }, rows: { href: "https://data.test/rows", type: "text/csv" } },
    });
    expect(r).toMatchObject({
      ok: true,
      request: { inputs: { places: { href: "https://data.test/places.geojson" }, rows: { href: "https://data.test/rows", type: "text/csv" } } },
    });
    if (r.ok) expect(callerDataToDataset(r.request.inputs.places!)).toBeNull();
  });

  it("names the faulty field: another scheme, an unknown media type or key, an area input", () => {
    const r = parseRunRequest(flow, {
      inputs: {
        places: { href: "ftp://data.test/a.csv", type: "image/png" },
        rows: { href: "https://data.test/a.csv", rel: "item" },
        area: { href: "https://data.test/area.geojson" },
      },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const fields = r.errors.map((e) => e.field).sort();
    expect(fields).toEqual(["/inputs/area", "/inputs/places/href", "/inputs/places/type", "/inputs/rows/rel"]);
  });

  it("appears in the JSON Schema of layer and table inputs", () => {
    const schema = JSON.stringify(runRequestJsonSchema(flow));
    expect(schema).toContain('"href"');
    expect(schema).toContain("application/geo+json");
  });
});
