import { describe, expect, it } from "vitest";
import { validateFlowVersion, type TFlowVersion } from "./definition";
import { applyParameterDefaults, callerDataToDataset, parseRunRequest, runRequestJsonSchema, runRequestSchema } from "./run-request";
import { fieldErrors } from "../errors/zod-issues";
import { tableFromRows } from "@/lib/steps/dataset";

const flow = (() => {
  const r = validateFlowVersion({
    inputs: [
      { name: "cities", kind: "layer" },
      { name: "area", kind: "area" },
      { name: "places", kind: "table", optional: true },
    ],
    parameters: [
      { name: "min_population", type: "integer", minimum: 0, default: 0 },
      { name: "mode", type: "enum", values: ["a", "b"], required: true },
      { name: "radius", type: "number", exclusiveMinimum: 0, maximum: 500 },
    ],
    steps: [
      { id: "f", type: "spatial_filter", source: "cities", by: "area" },
      { id: "t", type: "to_table", source: "f" },
      { id: "u", type: "union", sources: ["t", "places"] },
    ],
    results: [
      { key: "cities", kind: "layer", from: "f" },
      { key: "rows", kind: "table", from: "u" },
    ],
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.flow as TFlowVersion;
})();

const square = {
  type: "Polygon",
  coordinates: [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ],
  ],
};

describe("parseRunRequest", () => {
  it("accepts a valid request and applies defaults", () => {
    const r = parseRunRequest(flow, {
      inputs: { cities: { layer_id: "lyr_1" }, area: { area: square } },
      parameters: { mode: "a" },
      formats: { cities: "geoparquet" },
      wait_seconds: 10,
    });
    expect(r).toEqual({
      ok: true,
      request: {
        inputs: { cities: { layer_id: "lyr_1" }, area: { area: square }, places: null },
        parameters: { mode: "a", min_population: 0 },
        formats: { cities: "geoparquet" },
        wait_seconds: 10,
      },
    });
    expect(
      parseRunRequest(flow, {
        inputs: { cities: { geojson: { type: "FeatureCollection", features: [] } }, area: { area: square }, places: { rows: [{ id: 1, näme: "x" }] } },
        parameters: { mode: "b", radius: 500 },
      }).ok,
    ).toBe(true);
  });

  it("names every faulty field in one answer", () => {
    const r = parseRunRequest(flow, {
      inputs: {
        cities: { geojson: { type: "FeatureCollection", features: [{ type: "Feature", geometry: { type: "Point", coordinates: [200, 0] }, properties: {} }] } },
        area: {
          area: {
            type: "Polygon",
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [1, 1],
                [0, 1],
              ],
            ],
          },
        },
        places: { rows: [{ a: { nested: 1 } }], layer_id: "x" },
        extra: null,
      },
      parameters: { min_population: -1, radius: 0, colour: "red" },
      formats: { cities: "csv", nope: "csv" },
      wait_seconds: 61,
      foo: 1,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => `${e.field} ${e.code}`).sort()).toEqual(
      [
        "/inputs/cities/geojson/features/0/geometry/coordinates/0 invalid_position",
        "/inputs/area/area/coordinates/0 unclosed_ring",
        "/inputs/places invalid_form",
        "/inputs/extra unknown_field",
        "/parameters/min_population too_small",
        "/parameters/radius too_small",
        "/parameters/mode required",
        "/parameters/colour unknown_field",
        "/formats/cities invalid_value",
        "/formats/nope unknown_field",
        "/wait_seconds too_big",
        "/foo unknown_field",
      ].sort(),
    );
  });

  it("reports missing inputs, wrong forms, nested row values, self-intersecting areas", () => {
    const r = parseRunRequest(flow, {
      inputs: {
        cities: { rows: [] },
        area: {
          area: {
            type: "Polygon",
            coordinates: [
              [
                [0, 0],
                [1, 1],
                [1, 0],
                [0, 1],
                [0, 0],
              ],
            ],
          },
        },
        places: { rows: [{ ok: 1 }, { bad: [1] }] },
      },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => `${e.field} ${e.code}`).sort()).toEqual(
      [
        "/inputs/cities invalid_form",
        "/inputs/area/area/coordinates/0 self_intersection",
        "/inputs/places/rows/1/bad invalid_type",
        "/parameters/mode required",
      ].sort(),
    );
    const r2 = parseRunRequest(flow, { inputs: { area: null, places: { rows: Array(5001).fill({}) } }, parameters: { mode: "c" } });
    expect(r2.ok ? [] : r2.errors.map((e) => `${e.field} ${e.code}`).sort()).toEqual(
      ["/inputs/area invalid_form", "/inputs/cities required", "/inputs/places/rows too_big", "/parameters/mode invalid_value"].sort(),
    );
    expect(parseRunRequest(flow, [])).toMatchObject({ ok: false, errors: [{ field: "", code: "invalid_type" }] });
  });

  it("exposes the zod schema, the JSON Schema, defaults and caller data", () => {
    const body = { inputs: {} };
    const res = runRequestSchema(flow).safeParse(body);
    expect(res.success).toBe(false);
    if (!res.success) expect(fieldErrors(res.error.issues, body).map((e) => e.field)).toContain("/inputs/cities");
    const js = runRequestJsonSchema(flow) as { properties: Record<string, any>; required: string[] };
    expect(js.required).toEqual(["inputs", "parameters"]);
    expect(js.properties.inputs.required).toEqual(["cities", "area"]);
    expect(js.properties.parameters.properties.mode.enum).toEqual(["a", "b"]);
    expect(JSON.stringify(js.properties.inputs.properties.cities)).toContain("layer_id");
    expect(applyParameterDefaults(flow, { mode: "a" })).toEqual({ mode: "a", min_population: 0 });
    expect(callerDataToDataset({ rows: [{ a: 1 }, { b: 2 }] })).toEqual(tableFromRows(["a", "b"], [{ a: 1 }, { b: 2 }]));
    expect(callerDataToDataset({ layer_id: "x" })).toBeNull();
  });
});

describe("declared geometry of a layer input", () => {
  const geoFlow = (() => {
    const r = validateFlowVersion({
      inputs: [
        { name: "cities", kind: "layer", geometry: "point" },
        { name: "countries", kind: "layer", geometry: "polygon", columns: [{ name: "name", type: "string", required: true }] },
        { name: "things", kind: "layer", optional: true },
      ],
      steps: [{ id: "j", type: "spatial_join", points: "cities", polygons: "countries", aggregations: [{ op: "count", as: "n" }] }],
      results: [
        { key: "j", kind: "layer", from: "j" },
        { key: "t", kind: "layer", from: "things" },
      ],
    });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.flow as TFlowVersion;
  })();
  const feature = (geometry: unknown, properties: Record<string, unknown> = {}) => ({ type: "Feature", geometry, properties });
  const fc = (...features: unknown[]) => ({ geojson: { type: "FeatureCollection", features } });
  const point = { type: "Point", coordinates: [8.5, 47.4] };
  const multiPoint = { type: "MultiPoint", coordinates: [[8.5, 47.4]] };
  const line = { type: "LineString", coordinates: [[0, 0], [1, 1]] }; // prettier-ignore

  it("accepts features of the declared family, features without geometry, and any geometry for undeclared inputs", () => {
    const r = parseRunRequest(geoFlow, {
      inputs: {
        cities: fc(feature(point), feature(multiPoint), feature(null)),
        countries: fc(feature(square, { name: "A" }), feature({ type: "MultiPolygon", coordinates: [square.coordinates] }, { name: "B" })),
        things: fc(feature(point), feature(line), feature(square)),
      },
    });
    expect(r.ok, JSON.stringify(r)).toBe(true);
  });

  it("names each feature of another geometry by its geometry type's pointer (wrong_geometry_type)", () => {
    // The issue's case the other way round: points sent for the countries input.
    const r = parseRunRequest(geoFlow, {
      inputs: { cities: fc(feature(point), feature(square)), countries: fc(feature(square, { name: "A" }), feature(point, { name: 3 })) },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => `${e.field} ${e.code}`).sort()).toEqual(
      [
        "/inputs/cities/geojson/features/1/geometry/type wrong_geometry_type",
        "/inputs/countries/geojson/features/1/geometry/type wrong_geometry_type",
        "/inputs/countries/geojson/features/1/properties/name invalid_type",
      ].sort(),
    );
    expect(r.errors.find((e) => e.field === "/inputs/cities/geojson/features/1/geometry/type")!.message).toBe(
      'A Polygon feature; input "cities" needs point geometry (Point or MultiPoint)',
    );
  });

  it("leaves an unknown geometry type to the RFC 7946 check (one fault per field)", () => {
    const r = parseRunRequest(geoFlow, { inputs: { cities: fc(feature({ type: "Pointy", coordinates: [0, 0] })), countries: fc() } });
    expect(r.ok ? [] : r.errors.map((e) => e.field)).toEqual(["/inputs/cities/geojson/features/0/geometry/type"]);
    expect(r.ok ? "" : r.errors[0]!.code).not.toBe("wrong_geometry_type");
  });

  it("documents the accepted geometry types in the JSON Schema", () => {
    const js = runRequestJsonSchema(geoFlow) as { properties: Record<string, any> };
    const text = JSON.stringify(js.properties.inputs.properties.cities);
    expect(text).toContain('"enum":["Point","MultiPoint"]');
    expect(JSON.stringify(js.properties.inputs.properties.countries)).toContain('"enum":["Polygon","MultiPolygon"]');
    // `things` takes any geometry: no geometry types listed, the one enum is the href form's media types.
    const things = JSON.stringify(js.properties.inputs.properties.things);
    expect(things.match(/"enum"/g)).toHaveLength(1);
    expect(things).toContain('"enum":["application/geo+json"');
  });
});
