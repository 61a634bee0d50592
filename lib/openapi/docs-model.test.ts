import { describe, expect, it } from "vitest";
import { ZFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import { parseRunRequest } from "@/lib/flows/run-request";
import { DEMO_FLOWS } from "@/lib/demo/flows";
import { buildOpenApi } from "./build-openapi";
import type { TReadableLayer } from "@/lib/flows/input-geometry";
import { docsModel } from "./docs-model";

function modelFor(slug: string, layers: TReadableLayer[] = []) {
  const demo = DEMO_FLOWS.find((d) => d.apiSlug === slug)!;
  const flow = ZFlowVersion.parse(demo.definition);
  const doc = buildOpenApi({
    organization: "demo",
    environment: "production",
    api: slug,
    name: demo.apiName,
    description: demo.description,
    flowVersion: 1,
    flow,
    serverUrl: `https://x.test/public/api/demo/production/${slug}`,
    maxBodyBytes: 1000,
  });
  return { flow, model: docsModel(doc, "YOUR_API_KEY", layers) };
}

describe("docsModel", () => {
  it("lists inputs with their forms and parameters with type, default and range", () => {
    const { model } = modelFor("nearby-cities");
    expect(model.inputs).toEqual([
      {
        name: "places",
        kind: "table",
        required: true,
        forms: ["layer_id", "rows", "href"],
        description: "Rows with id, lon, lat (WGS 84 degrees)",
        columns: [
          expect.objectContaining({ name: "id", type: "any", required: true, range: "" }),
          { name: "lon", type: "number", required: true, range: "≥ -180, ≤ 180", description: "Longitude, WGS 84 degrees" },
          expect.objectContaining({ name: "lat", type: "number", required: true, range: "≥ -90, ≤ 90" }),
        ],
      },
      {
        name: "cities",
        kind: "layer",
        geometry: "point",
        required: true,
        forms: ["layer_id", "geojson", "href"],
        description: expect.any(String),
        columns: ["geonameid", "name", "country", "population"].map((name) => expect.objectContaining({ name, required: false })),
      },
    ]);
    expect(model.parameters).toContainEqual({
      name: "radius_km",
      type: "number",
      required: false,
      default: "25",
      range: "> 0, <= 500",
      description: "Search radius in km",
    });
    expect(model.parameters).toContainEqual(expect.objectContaining({ name: "min_population", type: "integer", default: "0", range: ">= 0" }));
  });

  it("lists results with formats and media types, and every operation with its status codes", () => {
    const { model } = modelFor("cities-in-area");
    expect(model.results).toEqual([
      expect.objectContaining({
        key: "cities",
        kind: "layer",
        formats: ["geojson", "geoparquet"],
        mediaTypes: ["application/geo+json", "application/vnd.apache.parquet"],
      }),
      expect.objectContaining({ key: "summary", kind: "table", formats: ["csv", "parquet"] }),
    ]);
    const post = model.operations.find((o) => o.method === "POST" && o.path === "/runs")!;
    expect(post.responses.map((r) => r.status)).toEqual(expect.arrayContaining(["200", "202", "401", "413", "415", "422", "429", "503"]));
    expect(post.responses.every((r) => r.description.length > 0)).toBe(true);
    expect(model.errorCodes.map((e) => e.code)).toContain("validation_failed");
  });

  it("builds examples whose body passes the flow's own validation (apart from layer ids)", () => {
    for (const demo of DEMO_FLOWS) {
      const { flow, model } = modelFor(demo.apiSlug);
      const r = parseRunRequest(flow as TFlowVersion, model.exampleBody);
      expect(r.ok, JSON.stringify(r)).toBe(true);
      expect(model.examples.curl).toContain(`https://x.test/public/api/demo/production/${demo.apiSlug}`);
      expect(model.examples.python).toContain("requests.post");
      expect(model.examples.javascript).toContain("fetch(");
    }
  });

  it("lists each result's columns with their types, as the flow derives them", () => {
    const { model } = modelFor("nearby-cities");
    const matches = model.results.find((r) => r.key === "matches")!;
    expect(matches.columns.map((c) => [c.name, c.type, c.parquetType])).toEqual([
      ["place_id", "any", "from the data"],
      ["geonameid", "integer", "INT64"],
      ["name", "string", "UTF8"],
      ["country", "string", "UTF8"],
      ["population", "integer", "INT64"],
      ["distance_km", "number", "DOUBLE"],
    ]);
    expect(matches.moreColumns).toBe(false);
    const places = model.results.find((r) => r.key === "places")!;
    expect(places.columns).toContainEqual({ name: "city_count", type: "integer", parquetType: "INT64" });
    expect(places.description).toContain("`city_count` (integer)");
  });

  it("picks example layers by the input's kind and geometry, not by the first name (issue 25)", () => {
    const layer = (id: string, name: string, kind: TReadableLayer["kind"], geometryTypes: string[]): TReadableLayer => ({
      id,
      name,
      kind,
      geometryTypes,
      itemCount: 1,
    });
    // Alphabetically first: a designer's upload and the capitals table.
    const layers = [
      layer("a-stores", "A stores", "features", ["Point"]),
      layer("world-capitals", "World capitals", "table", []),
      layer("world-cities", "World cities", "features", ["Point"]),
      layer("world-countries", "World countries", "features", ["MultiPolygon", "Polygon"]),
    ];
    const { flow, model } = modelFor("country-stats", layers);
    expect(model.exampleBody.inputs).toEqual({ cities: { layer_id: "a-stores" }, countries: { layer_id: "world-countries" } });
    expect(model.examples.curl).toContain('"countries":{"layer_id":"world-countries"}');
    expect(parseRunRequest(flow as TFlowVersion, model.exampleBody).ok).toBe(true);
    expect(modelFor("nearby-cities", layers).model.exampleBody.inputs).toEqual({ places: { layer_id: "world-capitals" }, cities: { layer_id: "a-stores" } });
    // No polygon layer readable: the countries example is caller GeoJSON of polygons, which validates.
    const points = modelFor("country-stats", layers.slice(0, 3));
    expect((points.model.exampleBody.inputs as any).countries.geojson.features[0].geometry.type).toBe("Polygon");
    expect(parseRunRequest(points.flow as TFlowVersion, points.model.exampleBody).ok).toBe(true);
  });
});
