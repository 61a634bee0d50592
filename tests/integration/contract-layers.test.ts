/**
 * Layers in the public contract (issue 25, items 2 and 3): a flow input's declared geometry
 * is checked at 422 for layers and caller GeoJSON alike, naming the field (the country-stats
 * docs example once sent the points of world-cities as countries and "succeeded"); an
 * unreadable layer id is answered with the readable ids that fit; the OpenAPI document and the
 * docs page offer those layers, and the docs example runs as pasted.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { apiPath, BASE_URL, demoUsage, http, resetRuns, runCount, sql } from "./helpers";
import { expectProblem } from "./contract-helpers";

const STATS = apiPath("country-stats");
const POINT = { type: "Feature", properties: { name: "A town" }, geometry: { type: "Point", coordinates: [8.54, 47.37] } };

beforeEach(resetRuns);

async function expectRefused(body: unknown): Promise<any[]> {
  const before = await demoUsage();
  const runs = await runCount();
  const r = await http("POST", `${STATS}/runs`, { body });
  const problem = expectProblem(r, 422, "validation_failed");
  expect(await runCount()).toBe(runs);
  expect(await demoUsage()).toEqual(before);
  return problem.errors;
}

describe("declared geometry", () => {
  it("refuses the points of world-cities as countries, naming /inputs/countries/layer_id", async () => {
    const errors = await expectRefused({ inputs: { cities: { layer_id: "world-cities" }, countries: { layer_id: "world-cities" } } });
    expect(errors).toEqual([
      {
        field: "/inputs/countries/layer_id",
        code: "wrong_geometry_type",
        message: 'Layer "world-cities" holds Point features; input "countries" needs polygon geometry (Polygon or MultiPolygon).',
      },
    ]);
    expect((await sql().query(`SELECT "geometryTypes" FROM layer WHERE id = 'world-countries'`)).rows[0].geometryTypes).toEqual(["MultiPolygon", "Polygon"]);
  });

  it("refuses caller GeoJSON points as countries, naming each feature's geometry type", async () => {
    const errors = await expectRefused({
      inputs: {
        cities: { geojson: { type: "FeatureCollection", features: [POINT] } },
        countries: { geojson: { type: "FeatureCollection", features: [POINT, POINT] } },
      },
    });
    expect(errors.map((e) => `${e.field} ${e.code}`)).toEqual([
      "/inputs/countries/geojson/features/0/geometry/type wrong_geometry_type",
      "/inputs/countries/geojson/features/1/geometry/type wrong_geometry_type",
    ]);
  });

  it("answers an unreadable id with the readable ids that fit the input", async () => {
    const errors = await expectRefused({ inputs: { cities: { layer_id: "world-cities" }, countries: { layer_id: "cities" } } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ field: "/inputs/countries/layer_id", code: "unknown_layer" });
    expect(errors[0].message).toMatch(/^No layer "cities" is readable in this environment\. Readable layers for "countries": (.+, )?world-countries(, .+)?\.$/);
    expect(errors[0].message).not.toContain("world-cities");
  });
});

describe("all faults at once", () => {
  it("lists a fault of the form beside an unreadable layer and a refused callback URI, starting nothing", async () => {
    const errors = await expectRefused({
      inputs: { cities: { layer_id: "no-such-layer" }, countries: { layer_id: "world-countries" } },
      parameters: { top: 0 },
      subscriber: { successUri: "http://127.0.0.1/done" },
    });
    expect(errors.map((e) => `${e.field} ${e.code}`)).toEqual([
      "/parameters/top too_small",
      "/subscriber/successUri url_not_allowed",
      "/inputs/cities/layer_id unknown_layer",
    ]);
  });

  it("does not check the layer of an input whose form is faulty", async () => {
    const errors = await expectRefused({ inputs: { cities: { layer_id: "world-cities", extra: 1 }, countries: { layer_id: "cities" } } });
    expect(errors.map((e) => `${e.field} ${e.code}`)).toEqual(["/inputs/cities/extra unknown_field", "/inputs/countries/layer_id unknown_layer"]);
  });
});

describe("readable layers for clients", () => {
  it("the OpenAPI document offers the readable layers that fit each input as layer_id examples", async () => {
    const doc = (await http("GET", `${STATS}/openapi.json`, { key: null })).body as any;
    const inputs = doc.components.schemas.RunRequest.properties.inputs.properties;
    const layerId = (input: string) => inputs[input].anyOf.find((v: any) => v.properties?.layer_id).properties.layer_id;
    expect(layerId("countries").examples).toContain("world-countries");
    expect(layerId("countries").examples).not.toContain("world-cities");
    expect(layerId("cities").examples).toContain("world-cities");
    expect(layerId("countries").description).toContain("world-countries (MultiPolygon/Polygon, 241 features)");
    expect(inputs.countries["x-geometry"]).toBe("polygon");
    expect(inputs.countries["x-readable-layers"]).toContainEqual({
      id: "world-countries",
      name: "World countries",
      kind: "features",
      geometry_types: ["MultiPolygon", "Polygon"],
      item_count: 241,
    });
  });

  it("the docs page lists them with geometry and items, and its example runs as pasted", async () => {
    const html = await (await fetch(`${BASE_URL}/docs/demo/production/country-stats`)).text();
    expect(html).toContain("Fits inputs");
    expect(html).toContain("MultiPolygon, Polygon");
    const curl = /-d &#x27;(\{.*?\})&#x27;/.exec(html) ?? /-d '(\{.*?\})'/.exec(html);
    const body = JSON.parse(curl![1]!.replace(/&quot;/g, '"'));
    expect(body.inputs.countries).toEqual({ layer_id: "world-countries" });
    const r = await http("POST", `${STATS}/runs`, { body });
    expect(r.status, r.text).toBe(200);
    expect(r.body.state).toBe("completed");
  });
});
