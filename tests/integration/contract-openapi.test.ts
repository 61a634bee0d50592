/**
 * Contract of `{base}/openapi.json` (public, no key; 404 unless published), validated with
 * a standard OpenAPI 3.1 validator, and of the docs page rendered from it.
 */
import { describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { apiPath, BASE_URL, http } from "./helpers";
import { createFlowApi, expectProblem, TINY_FLOW } from "./contract-helpers";

const APIS = ["cities-in-area", "country-stats", "nearby-cities"];

describe("openapi.json", () => {
  for (const api of APIS) {
    it(`serves a valid OpenAPI 3.1 document for ${api} without a key`, async () => {
      const r = await http("GET", `${apiPath(api)}/openapi.json`, { key: null });
      expect(r.status, r.text).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^application\/vnd\.oai\.openapi\+json/);
      const doc = JSON.parse(r.text);
      const result = await new Validator().validate(doc);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(doc.openapi).toBe("3.1.0");
      expect(doc.servers[0].url).toBe(`${BASE_URL}${apiPath(api)}`);
      expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-Api-Key" });
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/runs", "/runs/{run_id}", "/runs/{run_id}/cancel"]));
    });
  }

  it("derives the request schema and result paths from the published flow version", async () => {
    const doc = (await http("GET", `${apiPath("nearby-cities")}/openapi.json`, { key: null })).body;
    const parsed = typeof doc === "string" ? JSON.parse(doc) : doc;
    const body = parsed.components.schemas.RunRequest;
    expect(Object.keys(body.properties.inputs.properties)).toEqual(["places", "cities"]);
    expect(body.properties.parameters.properties.radius_km).toMatchObject({ type: "number", exclusiveMinimum: 0, maximum: 500, default: 25 });
    expect(Object.keys(parsed.paths["/runs/{run_id}/results/places"].get.responses["200"].content)).toEqual([
      "application/geo+json",
      "application/vnd.apache.parquet",
    ]);
    expect(Object.keys(parsed.paths["/runs/{run_id}/results/matches"].get.responses["200"].content)).toEqual([
      "text/csv; charset=utf-8",
      "application/vnd.apache.parquet",
    ]);
  });

  it("answers 404 for unpublished and unknown APIs", async () => {
    const draft = await createFlowApi({ definition: TINY_FLOW, publish: false });
    expectProblem(await http("GET", `${apiPath(draft)}/openapi.json`, { key: null }), 404, "not_found");
    expectProblem(await http("GET", `${apiPath("no-such-api")}/openapi.json`, { key: null }), 404, "not_found");
    expectProblem(await http("GET", `/public/api/demo/nowhere/cities-in-area/openapi.json`, { key: null }), 404, "not_found");
  });

  it("is never shared-cacheable while its server URL follows the request's X-Forwarded-Host (cache poisoning)", async () => {
    const r = await http("GET", `${apiPath("cities-in-area")}/openapi.json`, {
      key: null,
      headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    });
    expect(r.status, r.text).toBe(200);
    const serverUrl: string = JSON.parse(r.text).servers[0].url;
    const directives = (r.headers.get("cache-control") ?? "").split(",").map((d) => d.trim());
    if (serverUrl.startsWith("https://evil.example/")) {
      // derived from the request: no shared cache may store it, and every header it came from is named
      expect(directives).toContain("private");
      expect(directives).not.toContain("public");
      const vary = (r.headers.get("vary") ?? "").toLowerCase();
      for (const h of ["host", "x-forwarded-host", "x-forwarded-proto"]) expect(vary).toContain(h);
    } else {
      // PUBLIC_BASE_URL is set: the document is the same for every caller and may be shared
      expect(serverUrl).not.toContain("evil.example");
    }
  });

  it("serves a freshly published API", async () => {
    const api = await createFlowApi({ definition: TINY_FLOW });
    const r = await http("GET", `${apiPath(api)}/openapi.json`, { key: null });
    expect(r.status).toBe(200);
    expect((await new Validator().validate(JSON.parse(r.text))).valid).toBe(true);
  });
});

describe("docs page", () => {
  it("renders inputs, parameters, results, status codes and examples for each API", async () => {
    for (const api of APIS) {
      const res = await fetch(`${BASE_URL}/docs/demo/production/${api}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await res.text();
      const doc = JSON.parse((await http("GET", `${apiPath(api)}/openapi.json`, { key: null })).text);
      for (const input of Object.keys(doc.components.schemas.RunRequest.properties.inputs.properties)) expect(html).toContain(input);
      for (const param of Object.keys(doc.components.schemas.RunRequest.properties.parameters.properties)) expect(html).toContain(param);
      for (const path of Object.keys(doc.paths)) expect(html).toContain(path.replace(/[{}]/g, (c) => c));
      for (const status of ["202", "401", "403", "409", "413", "415", "422", "429", "503"]) expect(html).toContain(`>${status}<`);
      expect(html).toContain(`/public/ogc/demo/production/processes/${api}/execution`);
      expect(html).toContain("curl -s -X POST");
      expect(html).toContain("requests.post");
      expect(html).toContain("await fetch(");
      expect(html).toContain(`${apiPath(api)}/openapi.json`);
      expect(html).not.toMatch(/<link[^>]+https?:\/\/|<script[^>]+src="https?:\/\//); // nothing from outside
    }
  });

  it("writes its OGC links with the origin of the OpenAPI document's server URL (PUBLIC_BASE_URL when set)", async () => {
    const headers = { "x-forwarded-host": "docs.example", "x-forwarded-proto": "https" };
    const html = await (await fetch(`${BASE_URL}/docs/demo/production/cities-in-area`, { headers })).text();
    const doc = JSON.parse((await http("GET", `${apiPath("cities-in-area")}/openapi.json`, { key: null, headers })).text);
    expect(html).toContain(`${new URL(doc.servers[0].url).origin}/public/ogc/demo/production/processes/cities-in-area/execution`);
  });

  it("answers 404 for an API that is not published", async () => {
    expect((await fetch(`${BASE_URL}/docs/demo/production/no-such-api`)).status).toBe(404);
  });

  it("is linked from the landing page", async () => {
    const html = await (await fetch(`${BASE_URL}/`)).text();
    for (const api of APIS) expect(html).toContain(`href="/docs/demo/production/${api}"`);
  });
});
