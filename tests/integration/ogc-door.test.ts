/**
 * The OGC API - Processes door (`/public/ogc/{organization}/{environment}`, OGC 18-062r2) over
 * real HTTP, every answer validated against the response schemas of 18-062r2 (./ogc-schemas.ts): each declared conformance class (core, ogc-process-description, json, oas30,
 * job-list, dismiss), synchronous and asynchronous execution with `Prefer` (RFC 7240), job
 * status, results equal to the HTTP door's for the same input, dismiss, a key without a grant,
 * another environment's job; and `Prefer` on the HTTP door's `POST /runs`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiPath, BASE_URL, download, http, pollRun, resetRuns, sql, waitFor } from "./helpers";
import { expectOgcSchema } from "./ogc-schemas";
import { CITIES_BODY, createConsumer, createEnvironment, createFlowApi, SLOW_FLOW, ZURICH_AREA } from "./contract-helpers";

const OGC = "/public/ogc/demo/production";
const CONF = "http://www.opengis.net/spec/ogcapi-processes-1/1.0/conf/";
const EXECUTE_REL = "http://www.opengis.net/def/rel/ogc/1.0/execute";
const CITIES_INPUTS = { cities: { layer_id: "world-cities" }, area: { area: ZURICH_AREA } };
let slow: string;

beforeAll(async () => {
  slow = await createFlowApi({ definition: SLOW_FLOW });
});
beforeEach(resetRuns);
afterAll(async () => {
  await sql().query(`UPDATE run SET state = 'cancelled', "finishedAt" = now() WHERE state IN ('queued', 'running')`);
});

/** Asserts an OGC exception (RFC 7807 shaped) with `status`; returns the body. */
function expectException(r: { status: number; headers: Headers; body: any; text: string }, status: number, type?: string): any {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get("content-type")).toBe("application/problem+json");
  expect(r.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) });
  expectOgcSchema("exception", r.body);
  if (type) expect(r.body.type).toBe(`http://www.opengis.net/def/exceptions/ogcapi-processes-1/1.0/${type}`);
  return r.body;
}

function statusInfoShape(s: any) {
  expectOgcSchema("statusInfo", s);
  expect(s).toMatchObject({ jobID: expect.any(String), type: "process", status: expect.stringMatching(/^(accepted|running|successful|failed|dismissed)$/) });
  expect(s.links.some((l: any) => l.rel === "self" && l.href.endsWith(`/jobs/${s.jobID}`))).toBe(true);
  if (s.progress !== undefined) expect(s.progress).toBeGreaterThanOrEqual(0);
}

describe("core and json", () => {
  it("answers the landing page with links to the API definition, conformance, processes and jobs", async () => {
    const r = await http("GET", OGC, { key: null });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/application\/json/);
    const rels = r.body.links.map((l: any) => l.rel);
    for (const rel of [
      "self",
      "service-desc",
      "http://www.opengis.net/def/rel/ogc/1.0/conformance",
      "http://www.opengis.net/def/rel/ogc/1.0/processes",
      "http://www.opengis.net/def/rel/ogc/1.0/job-list",
    ]) {
      expect(rels).toContain(rel);
    }
    for (const l of r.body.links) expect(l.href).toMatch(/^https?:\/\//);
    expectOgcSchema("landingPage", r.body);
  });

  it("declares core, ogc-process-description, json, oas30, job-list, dismiss and callback", async () => {
    const r = await http("GET", `${OGC}/conformance`, { key: null });
    expect(r.status).toBe(200);
    expectOgcSchema("confClasses", r.body);
    expect([...r.body.conformsTo].sort()).toEqual(["callback", "core", "dismiss", "job-list", "json", "oas30", "ogc-process-description"].map((c) => CONF + c));
  });

  it("answers 404 for the documents of an organization or environment that does not exist", async () => {
    for (const path of ["/public/ogc/demo/no-such-env", "/public/ogc/no-such-org/production/conformance", "/public/ogc/demo/no-such-env/api"]) {
      expectException(await http("GET", path, { key: null }), 404);
    }
  });

  it("refuses a missing key on the processes with an exception", async () => {
    expectException(await http("GET", `${OGC}/processes`, { key: null }), 401);
  });
});

describe("oas30", () => {
  it("serves an OpenAPI 3.0 document of the door's paths", async () => {
    const r = await http("GET", `${OGC}/api`, { key: null });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/application\/vnd\.oai\.openapi\+json;version=3\.0/);
    expect(r.body.openapi).toMatch(/^3\.0\./);
    expect(Object.keys(r.body.paths)).toEqual(
      expect.arrayContaining([
        "/",
        "/conformance",
        "/api",
        "/processes",
        "/processes/{processID}",
        "/processes/{processID}/execution",
        "/jobs",
        "/jobs/{jobId}",
        "/jobs/{jobId}/results",
      ]),
    );
    expect(r.body.paths["/jobs/{jobId}"].delete).toBeDefined();
  });
});

describe("ogc-process-description", () => {
  it("lists every API the key may run, with self and execute links", async () => {
    const r = await http("GET", `${OGC}/processes`);
    expect(r.status, r.text).toBe(200);
    expectOgcSchema("processList", r.body);
    const ids = r.body.processes.map((p: any) => p.id);
    expect(ids).toEqual(expect.arrayContaining(["cities-in-area", "nearby-cities", "country-stats", slow]));
    for (const p of r.body.processes) {
      expect(p).toMatchObject({ version: expect.any(String), jobControlOptions: expect.arrayContaining(["sync-execute", "async-execute", "dismiss"]) });
      const rels = p.links.map((l: any) => l.rel);
      expect(rels).toContain("self");
      expect(rels).toContain(EXECUTE_REL);
    }
  });

  it("pages the process list by `limit` and its next link, by id", async () => {
    const all = (await http("GET", `${OGC}/processes`)).body.processes.map((p: any) => p.id);
    expect(all).toEqual([...all].sort());
    const seen: string[] = [];
    let path: string | undefined = `${OGC}/processes?limit=2`;
    while (path) {
      const page: any = await http("GET", path);
      expect(page.status, page.text).toBe(200);
      expectOgcSchema("processList", page.body);
      expect(page.body.processes.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.processes.map((p: any) => p.id));
      path = page.body.links.find((l: any) => l.rel === "next")?.href.replace(/^https?:\/\/[^/]+/, "");
    }
    expect(seen).toEqual(all);
    const bad = await http("GET", `${OGC}/processes?limit=0`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("/query/limit");
  });

  it("describes a process with the HTTP door's request schema for its inputs and its results' formats as outputs", async () => {
    const d = await http("GET", `${OGC}/processes/cities-in-area`);
    expect(d.status, d.text).toBe(200);
    expectOgcSchema("process", d.body);
    const oas = await http("GET", `${apiPath("cities-in-area")}/openapi.json`);
    const runs = oas.body.paths[Object.keys(oas.body.paths).find((p) => p.endsWith("/runs"))!].post.requestBody.content["application/json"].schema;
    const body = runs.$ref ? oas.body.components.schemas[runs.$ref.split("/").pop()] : runs;
    expect(Object.keys(d.body.inputs).sort()).toEqual(
      [...Object.keys(body.properties.inputs.properties), ...Object.keys(body.properties.parameters.properties)].sort(),
    );
    expect(d.body.inputs.cities.schema.oneOf ?? d.body.inputs.cities.schema.anyOf).toBeDefined();
    // the layers the key may read that fit the input, named as the HTTP door's document names them
    const layerId = (s: any) => (s.oneOf ?? s.anyOf).find((b: any) => b.properties?.layer_id).properties.layer_id;
    const httpCities = body.properties.inputs.properties.cities;
    expect(layerId(d.body.inputs.cities.schema).description).toBe(layerId(httpCities).description);
    expect(layerId(d.body.inputs.cities.schema).description).toMatch(/may read: world-cities \(Point, [\d,]+ features\)/);
    expect(layerId(d.body.inputs.cities.schema).example).toBe("world-cities");
    expect(d.body.inputs.area.minOccurs).toBe(1);
    expect(d.body.inputs.min_population.minOccurs).toBe(0);
    const media = (o: any) => o.schema.oneOf.map((s: any) => s.contentMediaType);
    expect(media(d.body.outputs.cities)).toEqual(["application/geo+json", "application/vnd.apache.parquet"]);
    expect(media(d.body.outputs.summary)).toEqual(["text/csv; charset=utf-8", "application/vnd.apache.parquet"]);
  });

  it("answers no-such-process for an API not published here", async () => {
    expectException(await http("GET", `${OGC}/processes/no-such-api`), 404, "no-such-process");
    expectException(await http("POST", `${OGC}/processes/no-such-api/execution`, { body: { inputs: {} } }), 404, "no-such-process");
  });
});

describe("execution", () => {
  it("runs synchronously by default and answers results equal to the HTTP door's on the same input", async () => {
    const ogc = await http("POST", `${OGC}/processes/cities-in-area/execution`, { body: { inputs: CITIES_INPUTS } });
    expect(ogc.status, ogc.text).toBe(200);
    expectOgcSchema("results", ogc.body);
    expect(ogc.headers.get("preference-applied")).toBeNull();
    const door = await http("POST", `${apiPath("cities-in-area")}/runs`, { body: { inputs: CITIES_INPUTS, wait_seconds: 60 } });
    expect(door.body.state).toBe("completed");
    const cities = door.body.results.find((r: any) => r.key === "cities");
    const summary = door.body.results.find((r: any) => r.key === "summary");
    expect(ogc.body.cities).toMatchObject({ mediaType: "application/geo+json" });
    expect(ogc.body.cities.value).toEqual(JSON.parse((await download(cities.href)).bytes.toString("utf8")));
    expect(ogc.body.cities.value.features.length).toBeGreaterThan(0);
    expect(ogc.body.summary.value).toBe((await download(summary.href)).bytes.toString("utf8"));
  });

  it("answers outputs by reference, in the chosen format, with Prefer: wait= applied", async () => {
    const r = await http("POST", `${OGC}/processes/cities-in-area/execution`, {
      headers: { prefer: "wait=30" },
      body: {
        inputs: { ...CITIES_INPUTS, min_population: 100000 },
        outputs: { cities: { format: { mediaType: "application/vnd.apache.parquet" }, transmissionMode: "reference" } },
      },
    });
    expect(r.status, r.text).toBe(200);
    expectOgcSchema("results", r.body);
    expect(r.headers.get("preference-applied")).toBe("wait=30");
    expect(r.body.cities).toMatchObject({ href: expect.stringMatching(/^https?:\/\/.+\/results\/cities$/), type: "application/vnd.apache.parquet" });
    const file = await fetch(r.body.cities.href, { headers: { "x-api-key": process.env.TEST_DEMO_API_KEY! } });
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe("PAR1");
    // only the outputs the request named
    expect(Object.keys(r.body)).toEqual(["cities"]);
  });

  it("answers response raw: one output as itself, all by reference as Link headers of a 204, several as multipart/related", async () => {
    const one = await http("POST", `${OGC}/processes/cities-in-area/execution`, {
      body: { inputs: CITIES_INPUTS, response: "raw", outputs: { summary: { format: { mediaType: "text/csv" } } } },
    });
    expect(one.status, one.text).toBe(200);
    expect(one.headers.get("content-type")).toMatch(/^text\/csv/);
    const door = await http("POST", `${apiPath("cities-in-area")}/runs`, { body: { inputs: CITIES_INPUTS, wait_seconds: 60 } });
    const summary = door.body.results.find((r: any) => r.key === "summary");
    expect(one.text).toBe((await download(summary.href)).bytes.toString("utf8"));

    const refs = await http("POST", `${OGC}/processes/cities-in-area/execution`, {
      body: { inputs: CITIES_INPUTS, response: "raw", outputs: { cities: { transmissionMode: "reference" }, summary: { transmissionMode: "reference" } } },
    });
    expect(refs.status, refs.text).toBe(204);
    const link = refs.headers.get("link")!;
    expect(link).toMatch(/\/results\/cities>; rel="enclosure"; type="application\/geo\+json"; title="cities"/);
    expect(link).toMatch(/\/results\/summary>; rel="enclosure"/);

    const res = await fetch(`${BASE_URL}${OGC}/processes/cities-in-area/execution`, {
      method: "POST",
      headers: { "x-api-key": process.env.TEST_DEMO_API_KEY!, "content-type": "application/json" },
      body: JSON.stringify({
        inputs: CITIES_INPUTS,
        response: "raw",
        outputs: { cities: { transmissionMode: "value" }, summary: { transmissionMode: "reference" } },
      }),
    });
    expect(res.status).toBe(200);
    const type = res.headers.get("content-type")!;
    expect(type).toMatch(/^multipart\/related; boundary=/);
    const boundary = /boundary=([^;]+)/.exec(type)![1]!;
    const parts = (await res.text()).split(`--${boundary}`).slice(1, -1);
    expect(parts).toHaveLength(2);
    expect(parts[0]).toContain("Content-ID: <cities>");
    expect(JSON.parse(parts[0]!.split("\r\n\r\n")[1]!).type).toBe("FeatureCollection");
    expect(parts[1]).toMatch(/Content-Location: https?:\/\/.+\/results\/summary/);
  });

  it("names faulty inputs and outputs as the execute request has them (422), starting nothing", async () => {
    const r = await http("POST", `${OGC}/processes/cities-in-area/execution`, {
      body: {
        inputs: { cities: { layer_id: "world-cities" }, area: { area: ZURICH_AREA }, min_population: "many" },
        outputs: { summary: { format: { mediaType: "image/png" } } },
      },
    });
    const body = expectException(r, 422);
    // every fault at once: the execute request's own, and its inputs'
    expect(body.errors.map((e: any) => e.field)).toEqual(["/outputs/summary/format/mediaType", "/inputs/min_population"]);
    const layer = await http("POST", `${OGC}/processes/cities-in-area/execution`, {
      body: { inputs: { cities: { layer_id: "no-such-layer" }, area: ZURICH_AREA, min_population: -1 } },
    });
    expect(expectException(layer, 422).errors.map((e: any) => `${e.field} ${e.code}`)).toEqual([
      "/inputs/min_population too_small",
      "/inputs/cities/layer_id unknown_layer",
    ]);
    const again = await http("POST", `${OGC}/processes/cities-in-area/execution`, { body: { inputs: { ...CITIES_INPUTS, min_population: "many" } } });
    expect(expectException(again, 422).errors.map((e: any) => e.field)).toContain("/inputs/min_population");
  });

  it("runs asynchronously with Prefer: respond-async: 201, Location, statusInfo, then status and results", async () => {
    const r = await http("POST", `${OGC}/processes/cities-in-area/execution`, { headers: { prefer: "respond-async" }, body: { inputs: CITIES_INPUTS } });
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get("preference-applied")).toBe("respond-async");
    statusInfoShape(r.body);
    expect(r.body.status).toBe("accepted");
    const location = new URL(r.headers.get("location")!).pathname;
    expect(location).toBe(`${OGC}/jobs/${r.body.jobID}`);
    const done = await waitFor(
      "the job to succeed",
      async () => {
        const s = await http("GET", location);
        return s.body.status === "successful" ? s.body : null;
      },
      60_000,
    );
    statusInfoShape(done);
    expect(done.progress).toBe(100);
    expect(done.links.map((l: any) => l.rel)).toContain("http://www.opengis.net/def/rel/ogc/1.0/results");
    const results = await http("GET", `${location}/results`);
    expect(results.status, results.text).toBe(200);
    expectOgcSchema("results", results.body);
    expect(results.body.cities.value.type).toBe("FeatureCollection");
    // The same run through the HTTP door.
    const run = await http("GET", `${apiPath("cities-in-area")}/runs/${r.body.jobID}`);
    expect(run.body.state).toBe("completed");
  });

  it("answers a later GET /jobs/{id}/results as the execute request asked: its outputs, transmission modes and response", async () => {
    /** Starts a job of `body` (respond-async), waits for it, and answers its GET /results as a fetch Response. */
    const results = async (body: object): Promise<Response> => {
      const r = await http("POST", `${OGC}/processes/cities-in-area/execution`, {
        headers: { prefer: "respond-async" },
        body: { inputs: CITIES_INPUTS, ...body },
      });
      expect(r.status, r.text).toBe(201);
      await pollRun(`${apiPath("cities-in-area")}/runs/${r.body.jobID}`);
      return fetch(`${BASE_URL}${OGC}/jobs/${r.body.jobID}/results`, { headers: { "x-api-key": process.env.TEST_DEMO_API_KEY! } });
    };
    const door = await http("POST", `${apiPath("cities-in-area")}/runs`, { body: { inputs: CITIES_INPUTS, wait_seconds: 60 } });
    const summaryCsv = (await download(door.body.results.find((r: any) => r.key === "summary").href)).bytes.toString("utf8");

    // document (/req/core/job-results-async-document): the named output only, by reference
    const doc = await results({ outputs: { cities: { transmissionMode: "reference" } } });
    expect(doc.status).toBe(200);
    const docBody = await doc.json();
    expectOgcSchema("results", docBody);
    expect(Object.keys(docBody)).toEqual(["cities"]);
    expect(docBody.cities).toMatchObject({ href: expect.stringMatching(/\/results\/cities$/), type: "application/geo+json" });

    // raw, one output by value (-async-raw-value-one): the file itself
    const one = await results({ response: "raw", outputs: { summary: { format: { mediaType: "text/csv" } } } });
    expect(one.status).toBe(200);
    expect(one.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(await one.text()).toBe(summaryCsv);

    // raw, all by reference (-async-raw-ref): 204 and a Link per output
    const refs = await results({ response: "raw", outputs: { cities: { transmissionMode: "reference" }, summary: { transmissionMode: "reference" } } });
    expect(refs.status).toBe(204);
    expect(refs.headers.get("link")).toMatch(
      /\/results\/cities>; rel="enclosure"; type="application\/geo\+json"; title="cities", <.+\/results\/summary>; rel="enclosure"/,
    );

    // raw, mixed (-async-raw-mixed-multi): multipart/related, the by-reference part with its Content-Location
    const mixed = await results({ response: "raw", outputs: { cities: { transmissionMode: "value" }, summary: { transmissionMode: "reference" } } });
    expect(mixed.status).toBe(200);
    const boundary = /^multipart\/related; boundary=([^;]+)/.exec(mixed.headers.get("content-type")!)![1]!;
    const parts = (await mixed.text()).split(`--${boundary}`).slice(1, -1);
    expect(parts.map((p) => /Content-ID: <(\w+)>/.exec(p)![1])).toEqual(["cities", "summary"]);
    expect(JSON.parse(parts[0]!.split("\r\n\r\n")[1]!).type).toBe("FeatureCollection");
    expect(parts[1]).toMatch(/Content-Location: https?:\/\/.+\/results\/summary/);

    // a run started at the HTTP door has no execute request: every output, as a document
    const plain = await fetch(`${BASE_URL}${OGC}/jobs/${door.body.run_id}/results`, { headers: { "x-api-key": process.env.TEST_DEMO_API_KEY! } });
    const plainBody = await plain.json();
    expect(Object.keys(plainBody).sort()).toEqual(["cities", "summary"]);
    expect(plainBody.summary.value).toBe(summaryCsv);
  });
});

describe("job-list and dismiss", () => {
  it("lists the consumer's jobs of every process, newest first", async () => {
    const a = await http("POST", `${OGC}/processes/cities-in-area/execution`, { headers: { prefer: "respond-async" }, body: { inputs: CITIES_INPUTS } });
    const b = await http("POST", `${apiPath("cities-in-area")}/runs`, { body: { inputs: CITIES_INPUTS } });
    const list = await http("GET", `${OGC}/jobs`);
    expect(list.status, list.text).toBe(200);
    expectOgcSchema("jobList", list.body);
    expect(list.body.jobs.map((j: any) => j.jobID)).toEqual([b.body.run_id, a.body.jobID]);
    for (const j of list.body.jobs) statusInfoShape(j);
    expect(list.body.links.some((l: any) => l.rel === "self")).toBe(true);
    await pollRun(b.body.links.self);
  });

  it("pages the job list by its next link and filters it by status and process", async () => {
    const a = await http("POST", `${OGC}/processes/cities-in-area/execution`, { headers: { prefer: "respond-async" }, body: { inputs: CITIES_INPUTS } });
    const b = await http("POST", `${OGC}/processes/cities-in-area/execution`, { headers: { prefer: "respond-async" }, body: { inputs: CITIES_INPUTS } });
    await pollRun(`${apiPath("cities-in-area")}/runs/${a.body.jobID}`);
    await pollRun(`${apiPath("cities-in-area")}/runs/${b.body.jobID}`);
    const first = await http("GET", `${OGC}/jobs?limit=1&processID=cities-in-area`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.jobs.map((j: any) => j.jobID)).toEqual([b.body.jobID]);
    const next = first.body.links.find((l: any) => l.rel === "next");
    expect(next.href).toContain("limit=1");
    const second = await http("GET", next.href.replace(/^https?:\/\/[^/]+/, ""));
    expect(second.body.jobs.map((j: any) => j.jobID)).toEqual([a.body.jobID]);
    const successful = await http("GET", `${OGC}/jobs?status=successful&processID=cities-in-area&limit=100`);
    expect(successful.body.jobs.every((j: any) => j.status === "successful" && j.processID === "cities-in-area")).toBe(true);
    expect(successful.body.jobs.map((j: any) => j.jobID)).toEqual(expect.arrayContaining([a.body.jobID, b.body.jobID]));
    const none = await http("GET", `${OGC}/jobs?status=dismissed&processID=cities-in-area&limit=100`);
    expect(none.body.jobs.map((j: any) => j.jobID)).not.toContain(a.body.jobID);
    // a list parameter repeated (OpenAPI form, explode) is the same as comma-separated
    const c = await http("POST", `${OGC}/processes/country-stats/execution`, {
      headers: { prefer: "respond-async" },
      body: { inputs: { cities: { layer_id: "world-cities" }, countries: { layer_id: "world-countries" } } },
    });
    await pollRun(`${apiPath("country-stats")}/runs/${c.body.jobID}`);
    const ids = async (query: string) => (await http("GET", `${OGC}/jobs?${query}&limit=100`)).body.jobs.map((j: any) => j.jobID);
    const both = await ids("processID=cities-in-area&processID=country-stats&status=successful&status=failed");
    expect(both).toEqual(expect.arrayContaining([a.body.jobID, b.body.jobID, c.body.jobID]));
    expect(both).toEqual(await ids("processID=cities-in-area,country-stats&status=successful,failed"));
    const bad = await http("GET", `${OGC}/jobs?status=done`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: "/query/status", code: "invalid_value", message: expect.stringContaining("Use job statuses from") }]);
    const badLimit = await http("GET", `${OGC}/jobs?limit=0`);
    expect(badLimit.status).toBe(422);
    expect(badLimit.body.errors[0].field).toBe("/query/limit");
  });

  it("dismisses a running job (cancel), then answers dismissed and no results", async () => {
    const r = await http("POST", `${OGC}/processes/${slow}/execution`, { headers: { prefer: "respond-async" }, body: CITIES_BODY });
    expect(r.status, r.text).toBe(201);
    const job = `${OGC}/jobs/${r.body.jobID}`;
    const before = await http("GET", `${job}/results`);
    expectException(before, 404, "result-not-ready");
    const d = await http("DELETE", job);
    expect(d.status, d.text).toBe(200);
    expect(d.body.status).toBe("dismissed");
    expect((await http("GET", job)).body.status).toBe("dismissed");
    const run = await http("GET", `${apiPath(slow)}/runs/${r.body.jobID}`);
    expect(run.body.state).toBe("cancelled");
    expectException(await http("GET", `${job}/results`), 409);
  });

  it("answers no-such-job for an unknown id and for another consumer's job", async () => {
    expectException(await http("GET", `${OGC}/jobs/00000000-0000-4000-8000-000000000000`), 404, "no-such-job");
    expectException(await http("GET", `${OGC}/jobs/not-a-uuid`), 404, "no-such-job");
    const mine = await http("POST", `${OGC}/processes/cities-in-area/execution`, { headers: { prefer: "respond-async" }, body: { inputs: CITIES_INPUTS } });
    const other = await createConsumer({ grants: ["cities-in-area"] });
    expectException(await http("GET", `${OGC}/jobs/${mine.body.jobID}`, { key: other.secret }), 404, "no-such-job");
    expectException(await http("DELETE", `${OGC}/jobs/${mine.body.jobID}`, { key: other.secret }), 404, "no-such-job");
    expect((await http("GET", `${OGC}/jobs`, { key: other.secret })).body.jobs).toEqual([]);
  });
});

describe("keys, grants and environments", () => {
  it("shows a consumer only its granted APIs; refuses the others as the HTTP door does", async () => {
    const c = await createConsumer({ grants: ["cities-in-area"] });
    const list = await http("GET", `${OGC}/processes`, { key: c.secret });
    expect(list.body.processes.map((p: any) => p.id)).toEqual(["cities-in-area"]);
    expectException(await http("GET", `${OGC}/processes/nearby-cities`, { key: c.secret }), 403);
    expectException(await http("POST", `${OGC}/processes/nearby-cities/execution`, { key: c.secret, body: { inputs: {} } }), 403);
  });

  it("refuses a key without any grant", async () => {
    const c = await createConsumer({ grants: [] });
    expectException(await http("GET", `${OGC}/processes`, { key: c.secret }), 403);
    expectException(await http("POST", `${OGC}/processes/cities-in-area/execution`, { key: c.secret, body: { inputs: CITIES_INPUTS } }), 403);
  });

  it("does not show a job to a key of another environment, nor take the key here", async () => {
    const mine = await http("POST", `${OGC}/processes/cities-in-area/execution`, { headers: { prefer: "respond-async" }, body: { inputs: CITIES_INPUTS } });
    const env = await createEnvironment();
    const c = await createConsumer({ environmentId: env.id });
    const there = `/public/ogc/demo/${env.slug}`;
    const r = await http("GET", `${there}/jobs/${mine.body.jobID}`, { key: c.secret });
    expect([403, 404]).toContain(r.status);
    expectException(await http("GET", `${OGC}/jobs/${mine.body.jobID}`, { key: c.secret }), 401);
    expectException(await http("GET", `${there}/jobs/${mine.body.jobID}`), 401);
  });
});

describe("Prefer on the HTTP door's POST /runs", () => {
  it("waits with Prefer: wait= and says so in Preference-Applied; respond-async answers 202 at once", async () => {
    const waited = await http("POST", `${apiPath("cities-in-area")}/runs`, { headers: { prefer: "wait=30" }, body: { inputs: CITIES_INPUTS } });
    expect(waited.status, waited.text).toBe(200);
    expect(waited.body.state).toBe("completed");
    expect(waited.headers.get("preference-applied")).toBe("wait=30");
    const async = await http("POST", `${apiPath("cities-in-area")}/runs`, { headers: { prefer: "respond-async" }, body: { inputs: CITIES_INPUTS } });
    expect(async.status).toBe(202);
    expect(async.headers.get("preference-applied")).toBe("respond-async");
    const body = await http("POST", `${apiPath("cities-in-area")}/runs`, {
      headers: { prefer: "respond-async" },
      body: { inputs: CITIES_INPUTS, wait_seconds: 30 },
    });
    expect(body.status).toBe(200);
    expect(body.headers.get("preference-applied")).toBeNull();
    await pollRun(async.body.links.self);
  });
});

describe("CORS and other methods", () => {
  const ORIGIN = "https://gis.example.org";
  const setOrigins = (origins: string[]) => sql().query(`UPDATE environment SET "corsOrigins" = $1 WHERE slug = 'production'`, [origins]);
  afterAll(() => setOrigins([]));

  it("answers the preflight and every answer with the environment's CORS headers, and 405 for other methods", async () => {
    await setOrigins([ORIGIN]);
    const preflight = () =>
      http("OPTIONS", `${OGC}/processes/cities-in-area/execution`, {
        key: null,
        headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "x-api-key, content-type, prefer" },
      });
    await waitFor("the origin to be allowed", async () => (await preflight()).headers.get("access-control-allow-origin") === ORIGIN, 2_000);
    const pre = await preflight();
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
    const landing = await http("GET", OGC, { key: null, headers: { origin: ORIGIN } });
    expect(landing.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const list = await http("GET", `${OGC}/processes`, { headers: { origin: ORIGIN } });
    expect(list.status).toBe(200);
    expect(list.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const missing = await http("GET", `${OGC}/jobs/00000000-0000-4000-8000-000000000000`, { headers: { origin: ORIGIN } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const put = await http("PUT", `${OGC}/processes`, { body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toContain("GET");
  });
});
