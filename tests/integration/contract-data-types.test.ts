/**
 * Contract: data keeps its shape (issue 8).
 * - Declared input columns are checked at the door: a row with no `lon`, `lon: 200`, `lat: 91`,
 *   `lon: true` or `lon: "8.5"` gets 422 naming the cell, as does a caller city whose declared
 *   `population` is text; nothing is started (they used to run and yield nothing, or sum as 0).
 * - Results have columns derived from the flow: the same Parquet/GeoParquet columns and types
 *   on a run with matches and on one without any (read back with hyparquet).
 * - The OpenAPI document and the docs page list the declared input columns and each result's
 *   columns with their types.
 */
import { describe, expect, it } from "vitest";
import { readParquet, schemaTypes } from "@/lib/formats/test-support";
import { apiPath, BASE_URL, download, http, runCount } from "./helpers";
import { expectProblem } from "./contract-helpers";

const NEARBY = `${apiPath("nearby-cities")}/runs`;
const CITIES = { layer_id: "world-cities" };

describe("declared input columns", () => {
  it("answers 422 naming each faulty cell of caller rows, and starts no run", async () => {
    const rows = [
      { id: "ok", lon: 8.54, lat: 47.37 },
      { id: "no-lon", lat: 47.37 },
      { id: "far", lon: 200, lat: 10 },
      { id: "pole", lon: 10, lat: 91 },
      { id: "bool", lon: true, lat: 10 },
      { id: "text", lon: "8.5", lat: 10 },
    ];
    const before = await runCount();
    const r = await http("POST", NEARBY, { body: { inputs: { places: { rows }, cities: CITIES } } });
    const problem = expectProblem(r, 422, "validation_failed");
    expect(problem.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ["/inputs/places/rows/1/lon", "required"],
      ["/inputs/places/rows/2/lon", "too_big"],
      ["/inputs/places/rows/3/lat", "too_big"],
      ["/inputs/places/rows/4/lon", "invalid_type"],
      ["/inputs/places/rows/5/lon", "invalid_type"],
    ]);
    expect(await runCount()).toBe(before);
  });

  it("checks declared properties of caller GeoJSON: a population sent as text is 422, not summed as 0", async () => {
    const city = (population: unknown) => ({
      type: "Feature",
      geometry: { type: "Point", coordinates: [8.54, 47.37] },
      properties: { geonameid: 1, name: "Zürich", country: "CH", population },
    });
    const area = {
      type: "Polygon",
      coordinates: [
        [
          [8, 47],
          [9, 47],
          [9, 48],
          [8, 48],
          [8, 47],
        ],
      ],
    };
    const body = (p: unknown) => ({ inputs: { cities: { geojson: { type: "FeatureCollection", features: [city(5000), city(p)] } }, area: { area } } });
    const bad = await http("POST", `${apiPath("cities-in-area")}/runs`, { body: body("5000") });
    expect(expectProblem(bad, 422, "validation_failed").errors).toEqual([
      expect.objectContaining({ field: "/inputs/cities/geojson/features/1/properties/population", code: "invalid_type" }),
    ]);
    const ok = await http("POST", `${apiPath("cities-in-area")}/runs`, { body: { ...body(7000), wait_seconds: 30 } });
    expect(ok.status, ok.text).toBe(200);
    const summary = ok.body.results.find((x: { key: string }) => x.key === "summary");
    const csv = (await download(summary.href.split("?")[0] + "?format=csv")).bytes.toString("utf8");
    expect(csv).toBe("city_count,total_population\r\n2,12000\r\n");
  });
});

describe("results have the flow's columns on every run", () => {
  async function schemas(place: { id: string; lon: number; lat: number }) {
    const r = await http("POST", NEARBY, {
      body: { inputs: { places: { rows: [place] }, cities: CITIES }, parameters: { radius_km: 30 }, wait_seconds: 60 },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.state).toBe("completed");
    const href = (key: string) => r.body.results.find((x: { key: string }) => x.key === key).href.split("?")[0];
    const out: Record<string, { names: string[]; types: Record<string, string>; rows: number }> = {};
    for (const [key, format] of [
      ["matches", "parquet"],
      ["places", "geoparquet"],
    ]) {
      const d = await download(`${href(key)}?format=${format}`);
      expect(d.status).toBe(200);
      const { metadata, rows } = await readParquet(d.bytes);
      out[key] = { names: metadata.schema.slice(1).map((e) => e.name), types: schemaTypes(metadata), rows: rows.length };
    }
    return out;
  }

  it("a run with matches and a run with none write the same Parquet and GeoParquet columns and types", async () => {
    const full = await schemas({ id: "zurich", lon: 8.54, lat: 47.37 });
    const empty = await schemas({ id: "mid-atlantic", lon: -30, lat: -40 });
    expect(full.matches.rows).toBeGreaterThan(5);
    expect(empty.matches.rows).toBe(0);
    expect(full.matches.names).toEqual(["place_id", "geonameid", "name", "country", "population", "distance_km"]);
    expect(full.matches.types).toEqual({
      place_id: "BYTE_ARRAY/UTF8",
      geonameid: "INT64",
      name: "BYTE_ARRAY/UTF8",
      country: "BYTE_ARRAY/UTF8",
      population: "INT64",
      distance_km: "DOUBLE",
    });
    expect(empty.matches).toEqual({ ...full.matches, rows: 0 });
    // The place without cities has nulls in nearest_city and nearest_km: still typed.
    expect(full.places.names).toEqual(["id", "city_count", "population_within", "nearest_city", "nearest_km", "geometry"]);
    expect(full.places.types).toMatchObject({ city_count: "INT64", population_within: "INT64", nearest_city: "BYTE_ARRAY/UTF8", nearest_km: "DOUBLE" });
    expect(empty.places).toEqual(full.places);
  });
});

describe("the API's documents show the columns", () => {
  it("OpenAPI: the request schema has the declared row columns; each result lists its columns and types", async () => {
    const r = await http("GET", `${apiPath("nearby-cities")}/openapi.json`, { key: null });
    expect(r.status).toBe(200);
    const places = r.body.components.schemas.RunRequest.properties.inputs.properties.places;
    const rows = places.anyOf.find((f: { properties: Record<string, unknown> }) => "rows" in f.properties).properties.rows;
    expect(rows.items).toMatchObject({
      properties: { lon: { type: "number", minimum: -180, maximum: 180 }, lat: { type: "number", minimum: -90, maximum: 90 } },
      required: ["id", "lon", "lat"],
    });
    const matches = r.body.paths["/runs/{run_id}/results/matches"].get["x-result-columns"];
    expect(matches.columns).toContainEqual({ name: "distance_km", type: "number", parquet_type: "DOUBLE" });
    expect(matches.columns).toContainEqual({ name: "geonameid", type: "integer", parquet_type: "INT64" });
  });

  it("the docs page shows the row columns and the result columns", async () => {
    // React separates adjacent text nodes with empty comments.
    const html = (await (await fetch(`${BASE_URL}/docs/demo/production/nearby-cities`)).text()).replace(/<!-- -->/g, "");
    expect(html).toContain("Columns of <code>places</code> rows");
    expect(html).toContain("/inputs/places/rows/0/id");
    // A layer input's declared properties are checked on caller GeoJSON, not on rows.
    expect(html).toContain("Properties of <code>cities</code> features");
    expect(html).toContain("/inputs/cities/geojson/features/0/properties/geonameid");
    expect(html).not.toContain("Columns of <code>cities</code> rows");
    expect(html).toContain("Columns of <code>matches</code>");
    expect(html).toMatch(/distance_km<\/code><\/td><td[^>]*>number<\/td><td[^>]*>DOUBLE/);
  });
});
