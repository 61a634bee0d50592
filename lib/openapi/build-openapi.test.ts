import { describe, expect, it, vi } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { ZFlowVersion } from "@/lib/flows/definition";
import { DEMO_FLOWS } from "@/lib/demo/flows";
import type { TReadableLayer } from "@/lib/flows/input-geometry";
import { buildOpenApi } from "./build-openapi";

// The demo environment's layers, plus what a designer may have added (issue 25: "stores").
const LAYERS: TReadableLayer[] = [
  { id: "stores", name: "Stores", kind: "features", geometryTypes: ["Point"], itemCount: 300 },
  { id: "world-capitals", name: "World capitals", kind: "table", geometryTypes: [], itemCount: 241 },
  { id: "world-cities", name: "World cities", kind: "features", geometryTypes: ["Point"], itemCount: 135_233 },
  { id: "world-countries", name: "World countries", kind: "features", geometryTypes: ["MultiPolygon", "Polygon"], itemCount: 241 },
];

function docFor(slug: string, readableLayers?: TReadableLayer[]) {
  const demo = DEMO_FLOWS.find((d) => d.apiSlug === slug)!;
  return buildOpenApi({
    organization: "demo",
    environment: "production",
    api: slug,
    name: demo.apiName,
    description: demo.description,
    flowVersion: 3,
    flow: ZFlowVersion.parse(demo.definition),
    serverUrl: `http://127.0.0.1:3000/public/api/demo/production/${slug}`,
    maxBodyBytes: 1024,
    readableLayers,
  });
}

describe("buildOpenApi", () => {
  for (const demo of DEMO_FLOWS) {
    it(`passes the OpenAPI 3.1 schema validator for ${demo.apiSlug}`, async () => {
      for (const layers of [undefined, LAYERS]) {
        const result = await new Validator().validate(docFor(demo.apiSlug, layers) as never);
        expect(result.errors ?? []).toEqual([]);
        expect(result.valid).toBe(true);
      }
    });
  }

  it("uses a validator that does reject a broken document", async () => {
    const broken = { ...docFor("cities-in-area"), info: undefined };
    expect((await new Validator().validate(broken as never)).valid).toBe(false);
  });

  it("derives the request body from the flow: inputs, parameters with ranges and defaults, formats", () => {
    const doc = docFor("country-stats");
    const body = doc.components.schemas.RunRequest as any;
    expect(body.$schema).toBeUndefined();
    expect(Object.keys(body.properties.inputs.properties)).toEqual(["cities", "countries"]);
    expect(body.properties.inputs.required).toEqual(["cities", "countries"]);
    expect(body.properties.parameters.properties.top).toMatchObject({ type: "integer", minimum: 1, maximum: 250, default: 10 });
    expect(body.properties.formats.properties.ranking.enum).toEqual(["csv", "parquet"]);
    expect(body.properties.formats.properties.countries.enum).toEqual(["geojson", "geoparquet"]);
    expect(body.properties.wait_seconds).toMatchObject({ type: "integer", minimum: 0, maximum: 60 });
    expect(Object.keys(body.properties.subscriber.properties)).toEqual(["successUri", "inProgressUri", "failedUri"]);
    expect(body.properties.subscriber.additionalProperties).toBe(false);
    expect(Object.keys((doc.paths["/runs"] as any).post.callbacks)).toEqual(["successUri", "inProgressUri", "failedUri"]);
    expect(body.additionalProperties).toBe(false);
  });

  it("has one download path per result key with that kind's media types", () => {
    const doc = docFor("cities-in-area");
    const layer = (doc.paths["/runs/{run_id}/results/cities"] as any).get;
    const table = (doc.paths["/runs/{run_id}/results/summary"] as any).get;
    expect(Object.keys(layer.responses["200"].content)).toEqual(["application/geo+json", "application/vnd.apache.parquet"]);
    expect(Object.keys(table.responses["200"].content)).toEqual(["text/csv; charset=utf-8", "application/vnd.apache.parquet"]);
    expect(layer.parameters[1].schema.enum).toEqual(["geojson", "geoparquet"]);
    expect(Object.keys(layer.responses)).toEqual(expect.arrayContaining(["200", "304", "401", "403", "404", "409", "422", "429", "500", "503"]));
  });

  it("describes a download by signed link: its query and that it needs no key", async () => {
    vi.stubEnv("AUTH_SECRET", "openapi-test-secret-0123456789abcdef");
    const { signResultLink } = await import("@/lib/mcp/result-link");
    const doc = docFor("cities-in-area");
    const get = (doc.paths["/runs/{run_id}/results/cities"] as any).get;
    const link = new URL(
      signResultLink("http://service.example", {
        path: { organization: "demo", environment: "production", api: "cities-in-area" },
        runId: "0b6f4c1e-8d8a-4c33-9a4e-2f1f5d0c7a11",
        key: "cities",
        format: "geoparquet",
      }).url,
    );
    const described = new Map((get.parameters as any[]).filter((p) => p.in === "query").map((p) => [p.name, p]));
    for (const [name, value] of link.searchParams) {
      expect(described.has(name), name).toBe(true);
      const pattern = described.get(name).schema.pattern;
      if (pattern) expect(value).toMatch(new RegExp(pattern));
    }
    expect(get.security).toEqual([{ ApiKey: [] }, {}]);
    vi.unstubAllEnvs();
  });

  it("lists every status code of POST /runs, the key scheme and the server", () => {
    const doc = docFor("nearby-cities");
    const post = (doc.paths["/runs"] as any).post;
    expect(Object.keys(post.responses).sort()).toEqual(["200", "202", "400", "401", "403", "404", "413", "415", "422", "429", "500", "503"]);
    expect(post.responses["202"].headers).toHaveProperty("Location");
    expect(post.responses["202"].headers).toHaveProperty("Retry-After");
    expect(doc.components.securitySchemes.ApiKey).toEqual(expect.objectContaining({ type: "apiKey", in: "header", name: "X-Api-Key" }));
    expect(doc.security).toEqual([{ ApiKey: [] }]);
    expect(doc.servers[0]!.url).toBe("http://127.0.0.1:3000/public/api/demo/production/nearby-cities");
    expect((doc.components.schemas.Problem as any).properties.errors.items).toEqual({ $ref: "#/components/schemas/FieldError" });
    expect(doc.paths).toHaveProperty(["/runs/{run_id}/cancel"]);
    expect((doc.paths["/runs"] as any).get.operationId).toBe("listRuns");
  });

  it("resolves every $ref", () => {
    const doc = docFor("nearby-cities");
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const r of refs) {
      const path = r.slice(8, -1).replace(/^#\//, "").split("/");
      let node: any = doc;
      for (const p of path) node = node?.[p];
      expect(node, r).toBeDefined();
    }
  });

  it("offers on each layer input the readable layers that fit its kind and geometry (examples, not enum)", () => {
    const body = docFor("country-stats", LAYERS).components.schemas.RunRequest as any;
    const layerIdOf = (input: string) => body.properties.inputs.properties[input].anyOf.find((v: any) => v.properties?.layer_id).properties.layer_id;
    expect(layerIdOf("countries")).toEqual({
      type: "string",
      minLength: 1,
      maxLength: 200,
      description:
        "The id of a feature layer (polygon geometry (Polygon or MultiPolygon)) this environment may read: world-countries (MultiPolygon/Polygon, 241 features).",
      examples: ["world-countries"],
    });
    expect(layerIdOf("cities").examples).toEqual(["stores", "world-cities"]);
    expect(layerIdOf("cities").enum).toBeUndefined();
    expect(body.properties.inputs.properties.countries["x-readable-layers"]).toEqual([
      { id: "world-countries", name: "World countries", kind: "features", geometry_types: ["MultiPolygon", "Polygon"], item_count: 241 },
    ]);
    const places = (docFor("nearby-cities", LAYERS).components.schemas.RunRequest as any).properties.inputs.properties.places;
    expect(places.anyOf.find((v: any) => v.properties?.layer_id).properties.layer_id.examples).toEqual(["world-capitals"]);
    // Without readable layers: no examples, and the description says so.
    const none = (docFor("country-stats", []).components.schemas.RunRequest as any).properties.inputs.properties.countries;
    expect(none.anyOf[0].properties.layer_id.description).toMatch(/none that fits is readable yet/);
  });
});
