import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { DEMO_FLOWS } from "@/lib/demo/flows";
import { ZFlowVersion } from "@/lib/flows/definition";
import { parseRunRequest, runRequestJsonSchema } from "@/lib/flows/run-request";
import type { TReadableLayer } from "@/lib/flows/input-geometry";
import {
  toolRunBody,
  argumentPointer,
  toolDescription,
  toolInputSchema,
  toolLayerList,
  toolName,
  parseToolArguments,
  ZRunResultArgs,
  ZRunStatusArgs,
  TOOL_LAYER_LIST_OUTPUT,
  TOOL_RUN_OUTPUT,
} from "@/lib/mcp/tool-definitions";

const nearby = ZFlowVersion.parse(DEMO_FLOWS.find((f) => f.apiSlug === "nearby-cities")!.definition);
const countryStats = ZFlowVersion.parse(DEMO_FLOWS.find((f) => f.apiSlug === "country-stats")!.definition);
// The demo environment's readable layers.
const LAYERS: TReadableLayer[] = [
  { id: "world-capitals", name: "World capitals", kind: "table", geometryTypes: [], itemCount: 241 },
  { id: "world-cities", name: "World cities", kind: "features", geometryTypes: ["Point"], itemCount: 135_233 },
  { id: "world-countries", name: "World countries", kind: "features", geometryTypes: ["MultiPolygon", "Polygon"], itemCount: 241 },
];

function faults(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return ((err as AppError).errors ?? []).map((e) => e.field);
  }
  throw new Error("expected a validation error");
}

describe("Flow API tools", () => {
  it("are named after the slug with - as _", () => {
    expect(toolName("country-stats")).toBe("country_stats");
    expect(toolName("a-b-c")).toBe("a_b_c");
  });

  it("take inputs and parameters side by side, with the HTTP request's schema pieces", () => {
    const schema = toolInputSchema(nearby) as any;
    const request = runRequestJsonSchema(nearby) as any;
    expect(Object.keys(schema.properties)).toEqual(["places", "cities", "radius_km", "min_population", "formats", "wait_seconds"]);
    expect(schema.properties.radius_km).toEqual(request.properties.parameters.properties.radius_km);
    expect(schema.properties.radius_km).toMatchObject({ exclusiveMinimum: 0, maximum: 500, default: 25 });
    expect(schema.properties.places.anyOf).toEqual(request.properties.inputs.properties.places.anyOf);
    expect(schema.properties.places.description).toContain('{"rows"');
    expect(schema.required).toEqual(["places", "cities"]);
    expect(schema.additionalProperties).toBe(false);
  });

  /** A tool call's run request as the MCP door makes it (the form only; the database checks are in tests/integration). */
  const requestOf = (args: Record<string, unknown>) => {
    const { body, errors, waitSeconds } = toolRunBody(nearby, args);
    const parsed = parseRunRequest(nearby, body);
    if (!parsed.ok) errors.push(...parsed.errors.map((e) => ({ ...e, field: argumentPointer(e.field) })));
    if (errors.length || !parsed.ok) throw new AppError("validation_failed", "faults", { errors });
    return { request: parsed.request, waitSeconds };
  };

  it("turn arguments into the run request POST /runs would get", () => {
    const { request, waitSeconds } = requestOf({
      places: { rows: [{ id: "a", lon: 8.5, lat: 47.4 }] },
      cities: { layer_id: "world-cities" },
      radius_km: 10,
      formats: { matches: "parquet" },
      wait_seconds: 5,
    });
    expect(waitSeconds).toBe(5);
    expect(request.inputs).toEqual({ places: { rows: [{ id: "a", lon: 8.5, lat: 47.4 }] }, cities: { layer_id: "world-cities" } });
    expect(request.parameters).toEqual({ radius_km: 10, min_population: 0 });
    expect(request.formats).toEqual({ matches: "parquet" });
    expect(requestOf({ places: { layer_id: "x" }, cities: { layer_id: "y" } }).waitSeconds).toBe(20);
  });

  it("name every faulty argument by pointer into the arguments", () => {
    expect(faults(() => requestOf({ radius_km: 0, extra: 1, wait_seconds: 56, formats: { matches: "geojson" } })).sort()).toEqual(
      ["/cities", "/extra", "/formats/matches", "/places", "/radius_km", "/wait_seconds"].sort(),
    );
    expect(faults(() => requestOf({ places: { rows: "no" }, cities: { layer_id: "y" } }))).toEqual(["/places/rows"]);
  });

  it("run tools parse their arguments by schema, naming each faulty one", () => {
    expect(parseToolArguments(ZRunStatusArgs, { run_id: "not-a-uuid" })).toEqual({ run_id: "not-a-uuid", wait_seconds: 0 });
    expect(faults(() => parseToolArguments(ZRunStatusArgs, { wait_seconds: 56, extra: 1 })).sort()).toEqual(["/extra", "/run_id", "/wait_seconds"]);
    expect(faults(() => parseToolArguments(ZRunResultArgs, { run_id: "r", key: "", format: "xlsx" })).sort()).toEqual(["/format", "/key"]);
  });

  it("describe what they do, their inputs, parameters, results, waiting and retention", () => {
    const text = toolDescription({ name: "Nearby cities", description: "Cities near places", flowName: "Nearby", flow: nearby }, 168);
    expect(text).toMatch(/^Cities near places\. Flow "Nearby": Cities near each of the caller's places\./);
    expect(text).toContain("radius_km (number, > 0, <= 500, default 25)");
    expect(text).toContain("Results: places (layer");
    expect(text).toContain("run_id");
    expect(text).toContain("kept 168 hours");
  });

  it("declare the run document as output schema", () => {
    expect((TOOL_RUN_OUTPUT as any).properties).toHaveProperty("run_id");
    expect((TOOL_RUN_OUTPUT as any).properties).toHaveProperty("next");
    expect((TOOL_RUN_OUTPUT as any).required).toContain("state");
  });

  it("name the readable layers that fit each input, in its description and as layer_id examples (issue 25)", () => {
    const schema = toolInputSchema(countryStats, LAYERS) as any;
    expect(schema.properties.countries.description).toContain("Features of polygon geometry (Polygon or MultiPolygon) only.");
    expect(schema.properties.countries.description).toContain(
      "Readable feature layers of polygon geometry (Polygon or MultiPolygon) for layer_id: world-countries (MultiPolygon/Polygon, 241 features).",
    );
    expect(schema.properties.countries.description).not.toContain("world-cities");
    const layerId = (p: any) => p.anyOf.find((v: any) => v.properties?.layer_id).properties.layer_id;
    expect(layerId(schema.properties.countries).examples).toEqual(["world-countries"]);
    expect(layerId(schema.properties.cities).examples).toEqual(["world-cities"]);
    expect(layerId((toolInputSchema(nearby, LAYERS) as any).properties.places).examples).toEqual(["world-capitals"]);
    expect((toolInputSchema(countryStats, []) as any).properties.countries.description).toContain("No readable feature layers of polygon geometry");
    const text = toolDescription({ name: "Population by country", description: null, flowName: null, flow: countryStats }, 168, LAYERS);
    expect(text).toContain(
      "Layers (list_layers lists every readable one): cities: Readable feature layers of point geometry (Point or MultiPoint) for layer_id: world-cities (Point, 135,233 features).",
    );
    expect(text).toContain("countries: Readable feature layers of polygon geometry (Polygon or MultiPolygon) for layer_id: world-countries");
  });

  it("list_layers: every readable layer with the tool arguments it fits, matching its output schema", () => {
    const list = toolLayerList(LAYERS, [
      { name: "country_stats", flow: countryStats },
      { name: "nearby_cities", flow: nearby },
    ]);
    expect(list.layers.map((l) => [l.id, l.fits])).toEqual([
      ["world-capitals", ["nearby_cities.places"]],
      ["world-cities", ["country_stats.cities", "nearby_cities.cities"]],
      ["world-countries", ["country_stats.countries"]],
    ]);
    expect(list.layers[1]).toMatchObject({ kind: "features", geometry_types: ["Point"], item_count: 135_233 });
    expect(Object.keys((TOOL_LAYER_LIST_OUTPUT as any).properties.layers.items.properties).sort()).toEqual(
      ["fits", "geometry_types", "id", "item_count", "kind", "name"].sort(),
    );
  });

  it("a layer fits only the tools of its workspace (a layer_id resolves in the API's workspace)", () => {
    const cities = LAYERS[1]!;
    const list = toolLayerList(
      [
        { ...cities, workspaceId: "w1" },
        { ...cities, name: "Other cities", workspaceId: "w2" },
      ],
      [
        { name: "country_stats", flow: countryStats, workspaceId: "w1" },
        { name: "nearby_cities", flow: nearby, workspaceId: "w2" },
      ],
    );
    expect(list.layers.map((l) => [l.name, l.fits])).toEqual([
      ["World cities", ["country_stats.cities"]],
      ["Other cities", ["nearby_cities.cities"]],
    ]);
    expect(list.layers[0]).not.toHaveProperty("workspaceId");
  });
});
