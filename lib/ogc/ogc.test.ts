import { toOas30Schema } from "@/lib/ogc/oas30-schema";
import { describe, expect, it } from "vitest";
import { ZFlowVersion } from "@/lib/flows/definition";
import { NEARBY_CITIES } from "@/lib/demo/flows";
import { applyPrefer, parsePrefer } from "@/lib/http/prefer";
import { requestSchema } from "@/lib/openapi/schemas";
import { toRunRequest } from "@/lib/ogc/execute-request";
import { formatOfMediaType, processDescription } from "@/lib/ogc/process-description";
import { statusInfo } from "@/lib/ogc/status-info";

const flow = ZFlowVersion.parse(NEARBY_CITIES);
const source = { slug: "nearby-cities", name: "Nearby cities", description: null, flowVersion: 1, flow };

describe("process description", () => {
  it("has the flow's inputs and parameters with the HTTP door's request schema (as OpenAPI 3.0), and its results in their kind's formats", () => {
    const d = processDescription(source, "http://x/public/ogc/o/e") as any;
    const schema = requestSchema(flow) as any;
    for (const i of flow.inputs) expect(d.inputs[i.name].schema).toEqual(toOas30Schema(schema.properties.inputs.properties[i.name]));
    for (const p of flow.parameters) expect(d.inputs[p.name].schema).toEqual(toOas30Schema(schema.properties.parameters.properties[p.name]));
    for (const r of flow.results) expect(d.outputs[r.key].schema.oneOf.length).toBeGreaterThan(0);
    expect(d.jobControlOptions).toEqual(["sync-execute", "async-execute", "dismiss"]);
    expect(d.links.map((l: any) => l.rel)).toContain("http://www.opengis.net/def/rel/ogc/1.0/execute");
  });

  it("finds a format by media type within a kind", () => {
    expect(formatOfMediaType("layer", "application/geo+json")).toBe("geojson");
    expect(formatOfMediaType("table", "text/csv")).toBe("csv");
    expect(formatOfMediaType("layer", "application/vnd.apache.parquet")).toBe("geoparquet");
    expect(formatOfMediaType("table", "application/vnd.apache.parquet")).toBe("parquet");
    expect(formatOfMediaType("layer", "text/csv")).toBeNull();
  });
});

describe("execute request", () => {
  it("maps inputs, parameters and output formats to the HTTP door's body", () => {
    const fc = { type: "FeatureCollection", features: [] };
    const param = flow.parameters[0]!;
    const { body, answer } = toRunRequest(flow, {
      inputs: { [flow.inputs[0]!.name]: { value: fc }, [param.name]: 5 },
      outputs: { [flow.results[0]!.key]: { format: { mediaType: "application/geo+json" }, transmissionMode: "reference" } },
    });
    expect(body).toEqual({
      inputs: { [flow.inputs[0]!.name]: { geojson: fc } },
      parameters: { [param.name]: 5 },
      formats: { [flow.results[0]!.key]: "geojson" },
    });
    expect(answer).toEqual({ outputs: [flow.results[0]!.key], transmission: { [flow.results[0]!.key]: "reference" }, response: "document" });
  });

  it("keeps how the results are answered: every output as a document unless the request chose", () => {
    expect(toRunRequest(flow, {}).answer).toEqual({ transmission: {}, response: "document" });
    const key = flow.results[0]!.key;
    // an unknown output is a fault of the request (below), never a kept choice
    expect(toRunRequest(flow, { response: "raw", outputs: { [key]: {}, nada: {} } }).answer).toEqual({ outputs: [key], transmission: {}, response: "raw" });
  });

  it("names unknown inputs and outputs and unavailable media types", () => {
    const { errors } = toRunRequest(flow, { inputs: { nope: 1 }, outputs: { nada: {}, [flow.results[0]!.key]: { format: { mediaType: "image/png" } } } });
    expect(errors.map((e) => e.field)).toEqual(["/inputs/nope", "/outputs/nada", `/outputs/${flow.results[0]!.key}/format/mediaType`]);
  });
});

describe("Prefer (RFC 7240)", () => {
  it("reads respond-async and wait, the body's wait_seconds winning", () => {
    expect(parsePrefer("respond-async, wait=10")).toEqual({ respondAsync: true, wait: 10 });
    expect(parsePrefer('wait="5"; foo')).toEqual({ respondAsync: false, wait: 5 });
    expect(parsePrefer(null)).toEqual({ respondAsync: false, wait: null });
    expect(applyPrefer(parsePrefer("wait=100"), null, 60)).toEqual({ waitSeconds: 60, applied: "wait=60" });
    expect(applyPrefer(parsePrefer("respond-async"), null, 60)).toEqual({ waitSeconds: 0, applied: "respond-async" });
    expect(applyPrefer(parsePrefer("wait=5"), 3, 60)).toEqual({ waitSeconds: 3, applied: null });
  });
});

describe("statusInfo", () => {
  it("maps run states and progress", () => {
    const doc = {
      run_id: "00000000-0000-4000-8000-000000000000",
      state: "running" as const,
      links: { self: "/r", cancel: "/r/cancel" },
      api: "nearby-cities",
      flow_version: 1,
      created_at: "2026-01-01T00:00:00.000Z",
      started_at: "2026-01-01T00:00:01.000Z",
      finished_at: null,
      progress: { steps_done: 1, steps_total: 4 },
    };
    const s = statusInfo(doc, "http://x/b");
    expect(s).toMatchObject({ jobID: doc.run_id, processID: "nearby-cities", status: "running", progress: 25, type: "process" });
    expect(statusInfo({ ...doc, state: "cancelled" }, "http://x/b").status).toBe("dismissed");
    expect(statusInfo({ ...doc, state: "queued" }, "http://x/b").status).toBe("accepted");
  });
});

describe("an OGC link input", () => {
  it("becomes the HTTP door's href form, with its type, other link members dropped", () => {
    const flow = { inputs: [{ name: "places", kind: "layer" }], parameters: [], steps: [], results: [{ key: "out", kind: "layer", from: "places" }] };
    const { body } = toRunRequest(flow as never, {
      inputs: { places: { href: "https://data.test/p.json", type: "application/geo+json", rel: "item", title: "Places" } },
    });
    expect(body.inputs).toEqual({ places: { href: "https://data.test/p.json", type: "application/geo+json" } });
  });
});

describe("toOas30Schema", () => {
  it("writes a 2020-12 schema in the OpenAPI 3.0 dialect of 18-062r2's schema.yaml", () => {
    expect(
      toOas30Schema({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        "x-input-kind": "layer",
        properties: {
          kind: { const: "a" },
          n: { type: ["number", "null"], exclusiveMinimum: 0, examples: [3] },
          v: { anyOf: [{ type: "string" }, { type: "null" }], description: "d" },
          w: { anyOf: [{ type: "string" }, { type: "integer" }] },
        },
        additionalProperties: false,
      }),
    ).toEqual({
      type: "object",
      properties: {
        kind: { enum: ["a"] },
        n: { type: "number", nullable: true, minimum: 0, exclusiveMinimum: true, example: 3 },
        v: { type: "string", nullable: true, description: "d" },
        w: { anyOf: [{ type: "string" }, { type: "integer" }] },
      },
      additionalProperties: false,
    });
  });
});
