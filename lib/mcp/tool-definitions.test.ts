import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { DEMO_FLOWS } from "@/lib/demo/flows";
import { ZFlowVersion } from "@/lib/flows/definition";
import { runRequestJsonSchema } from "@/lib/flows/run-request";
import { toolArgumentsToRunRequest, toolDescription, toolInputSchema, toolName, TOOL_RUN_OUTPUT } from "@/lib/mcp/tool-definitions";

const nearby = ZFlowVersion.parse(DEMO_FLOWS.find((f) => f.apiSlug === "nearby-cities")!.definition);

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

  it("turn arguments into the run request POST /runs would get", () => {
    const { request, waitSeconds } = toolArgumentsToRunRequest(nearby, {
      places: { rows: [{ id: "a", lon: 8.5, lat: 47.4 }] },
      cities: { layer_id: "world-cities" },
      radius_km: 10,
      formats: { matches: "parquet" },
      wait_seconds: 5,
    });
    expect(waitSeconds).toBe(5);
    expect(request.body.inputs).toEqual({ places: { rows: [{ id: "a", lon: 8.5, lat: 47.4 }] }, cities: { layer_id: "world-cities" } });
    expect(request.parameters).toEqual({ radius_km: 10, min_population: 0 });
    expect(request.body.formats).toEqual({ matches: "parquet" });
    expect(toolArgumentsToRunRequest(nearby, { places: { layer_id: "x" }, cities: { layer_id: "y" } }).waitSeconds).toBe(20);
  });

  it("name every faulty argument by pointer into the arguments", () => {
    expect(faults(() => toolArgumentsToRunRequest(nearby, { radius_km: 0, extra: 1, wait_seconds: 56, formats: { matches: "geojson" } })).sort()).toEqual(
      ["/cities", "/extra", "/formats/matches", "/places", "/radius_km", "/wait_seconds"].sort(),
    );
    expect(faults(() => toolArgumentsToRunRequest(nearby, { places: { rows: "no" }, cities: { layer_id: "y" } }))).toEqual(["/places/rows"]);
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
});
