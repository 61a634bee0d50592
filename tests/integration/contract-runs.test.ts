/**
 * Contract of the run endpoints: 422 naming every fault by JSON Pointer, 202 with Location
 * and Retry-After, 200 within wait_seconds for every final state (completed, failed,
 * cancelled), 409 for cancelling a finished run and for results of a run that has not
 * completed, 404 for another consumer's run on every run endpoint (indistinguishable from a
 * missing one), and caller data that never becomes a layer and is removed once final.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiPath, demoUsage, http, OTHER_KEY, pollRun, resetRuns, runCount, sql, waitFor } from "./helpers";
import { CITIES_BODY, createFlowApi, expectProblem, FAILING_FLOW, layerCount, SLOW_FLOW, ZURICH_AREA as AREA } from "./contract-helpers";

const CITIES = apiPath("cities-in-area");
const NEARBY = apiPath("nearby-cities");
let failing: string;
let slow: string;
const started: string[] = [];

beforeAll(async () => {
  failing = apiPath(await createFlowApi({ definition: FAILING_FLOW }));
  slow = apiPath(await createFlowApi({ definition: SLOW_FLOW }));
});
beforeEach(resetRuns);
afterAll(async () => {
  // Never leave a slow run occupying a worker slot.
  await sql().query(`UPDATE run SET state = 'cancelled', "finishedAt" = now() WHERE state IN ('queued', 'running')`);
});

async function startSlow(): Promise<any> {
  const r = await http("POST", `${slow}/runs`, { body: CITIES_BODY });
  expect(r.status, r.text).toBe(202);
  started.push(r.body.links.self);
  return r.body;
}

describe("422", () => {
  it("names every faulty field of one request by JSON Pointer, starts nothing and counts nothing", async () => {
    const r = await http("POST", `${NEARBY}/runs`, {
      body: {
        inputs: { places: { geojson: { type: "FeatureCollection", features: [] } }, cities: { layer_id: 7 }, unknown_input: null },
        parameters: { radius_km: 0, min_population: "many", extra: 1 },
        formats: { matches: "geojson", nope: "csv" },
        wait_seconds: 1.5,
        surprise: true,
      },
    });
    const body = expectProblem(r, 422, "validation_failed");
    const fields = (body.errors as { field: string; code: string; message: string }[]).map((e) => e.field);
    for (const e of body.errors) {
      expect(e.field).toMatch(/^(\/[^/]*)+$/);
      expect(e.code).toEqual(expect.any(String));
      expect(e.message).toEqual(expect.any(String));
    }
    for (const expected of [
      "/inputs/places",
      "/inputs/cities/layer_id",
      "/parameters/radius_km",
      "/parameters/min_population",
      "/formats/matches",
      "/wait_seconds",
    ]) {
      expect(fields, JSON.stringify(body.errors)).toContain(expected);
    }
    expect(fields.some((f) => f === "/inputs/unknown_input" || f === "/inputs")).toBe(true);
    expect(fields.some((f) => f === "/parameters/extra" || f === "/parameters")).toBe(true);
    expect(fields.some((f) => f === "/formats/nope" || f === "/formats")).toBe(true);
    expect(fields.some((f) => f === "/surprise" || f === "")).toBe(true);
    expect(fields.length).toBeGreaterThanOrEqual(10);
    expect(await runCount()).toBe(0);
    expect(await demoUsage()).toEqual({ etlRuns: 0, processingMs: 0, apiRequests: 0 });
  });

  it("names invalid GeoJSON positions and the rows limit", async () => {
    const r = await http("POST", `${NEARBY}/runs`, {
      body: {
        inputs: {
          places: { rows: Array.from({ length: 5001 }, (_, i) => ({ id: i, lon: 0, lat: 0 })) },
          cities: {
            geojson: { type: "FeatureCollection", features: [{ type: "Feature", properties: {}, geometry: { type: "Point", coordinates: [200, 0] } }] },
          },
        },
      },
    });
    const fields = expectProblem(r, 422).errors.map((e: any) => e.field);
    expect(fields).toContain("/inputs/places/rows");
    expect(fields.some((f: string) => f.startsWith("/inputs/cities/geojson/features/0/geometry/coordinates"))).toBe(true);
  });
});

describe("202 and 200 within wait_seconds", () => {
  it("answers 202 with Location and Retry-After when no wait is asked", async () => {
    const r = await http("POST", `${CITIES}/runs`, { body: { inputs: { ...CITIES_BODY.inputs, area: { area: AREA } } } });
    expect(r.status, r.text).toBe(202);
    expect(r.headers.get("location")).toBe(r.body.links.self);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.body).toMatchObject({ state: "queued", api: "cities-in-area", flow_version: expect.any(Number), started_at: null, finished_at: null });
    expect(r.body.results).toBeUndefined();
    expect((await pollRun(r.body.links.self)).state).toBe("completed");
  });

  it("answers 200 with a completed run and its results", async () => {
    const r = await http("POST", `${CITIES}/runs`, { body: { inputs: { ...CITIES_BODY.inputs, area: { area: AREA } }, wait_seconds: 30 } });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("location")).toBeNull();
    expect(r.body.state).toBe("completed");
    expect(r.body.results.map((x: any) => x.key)).toEqual(["cities", "summary"]);
    expect(r.body.error).toBeUndefined();
  });

  it("answers 200 with a failed run and its error, without results", async () => {
    const r = await http("POST", `${failing}/runs`, { body: { ...CITIES_BODY, wait_seconds: 30 } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.state).toBe("failed");
    expect(r.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(JSON.stringify(r.body.error)).toContain("bad_union");
    expect(r.body.results).toBeUndefined();
    expectProblem(await http("GET", `${r.body.links.self}/results/out`), 409, "conflict");
    expectProblem(await http("POST", r.body.links.cancel), 409, "conflict");
  });

  it("answers 200 with a cancelled run when it is cancelled while the caller waits", async () => {
    const waiting = http("POST", `${slow}/runs`, { body: { ...CITIES_BODY, wait_seconds: 30 } });
    const run = await waitFor("the run to be listed", async () => (await http("GET", `${slow}/runs`)).body.runs?.[0], 10_000);
    const t0 = Date.now();
    const cancel = await http("POST", run.links.cancel);
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body.state).toBe("cancelled");
    const r = await waiting;
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ run_id: run.run_id, state: "cancelled", finished_at: expect.any(String) });
    expect(r.body.results).toBeUndefined();
  });
});

describe("409", () => {
  it("refuses results of a queued or running run and cancelling a finished one; cancels an unfinished one", async () => {
    const run = await startSlow();
    const early = await http("GET", `${run.links.self}/results/out`);
    expectProblem(early, 409, "conflict");
    const c = await http("POST", run.links.cancel);
    expect(c.status, c.text).toBe(200);
    expect(c.body.state).toBe("cancelled");
    expect(c.headers.get("content-type")).toBe("application/json");
    expectProblem(await http("POST", run.links.cancel), 409, "conflict");
    expectProblem(await http("GET", `${run.links.self}/results/out`), 409, "conflict");
    expect((await http("GET", run.links.self)).body.state).toBe("cancelled");
  });
});

describe("visibility", () => {
  it("answers 404 for another consumer's run on every run endpoint, exactly like a missing run", async () => {
    const r = await http("POST", `${CITIES}/runs`, { body: { inputs: { ...CITIES_BODY.inputs, area: { area: AREA } }, wait_seconds: 30 } });
    expect(r.status).toBe(200);
    const self: string = r.body.links.self;
    const missing = self.replace(/[0-9a-f-]{36}$/, "11111111-2222-4333-8444-555555555555");
    const pairs: [string, string][] = [
      ["GET", ""],
      ["POST", "/cancel"],
      ["GET", "/results/cities"],
      ["GET", "/results/cities?format=geoparquet"],
      ["GET", "/results/no-such-key"],
    ];
    for (const [method, tail] of pairs) {
      const theirs = await http(method, self + tail, { key: OTHER_KEY });
      const none = await http(method, missing + tail, { key: OTHER_KEY });
      expectProblem(theirs, 404, "not_found");
      expectProblem(none, 404, "not_found");
      const { instance: _a, ...a } = theirs.body;
      const { instance: _b, ...b } = none.body;
      expect(a).toEqual(b);
      expect([...theirs.headers.keys()].filter((h) => h !== "date" && h !== "ratelimit").sort()).toEqual(
        [...none.headers.keys()].filter((h) => h !== "date" && h !== "ratelimit").sort(),
      );
    }
    // A malformed id is also just "no such run".
    expectProblem(await http("GET", `${CITIES}/runs/not-a-uuid`, { key: OTHER_KEY }), 404, "not_found");
    // The other consumer's list does not show it.
    expect((await http("GET", `${CITIES}/runs`, { key: OTHER_KEY })).body.runs).toEqual([]);
    // And the owner still sees everything.
    expect((await http("GET", self)).status).toBe(200);
  });
});

describe("caller data", () => {
  it("never becomes a layer and is removed from the run once it is final", async () => {
    const layersBefore = await layerCount();
    const runs = await Promise.all([
      http("POST", `${NEARBY}/runs`, {
        body: { inputs: { places: { rows: [{ id: "zurich", lon: 8.54, lat: 47.37 }] }, cities: { layer_id: "world-cities" } }, wait_seconds: 30 },
      }),
      http("POST", `${CITIES}/runs`, {
        body: {
          inputs: {
            cities: {
              geojson: {
                type: "FeatureCollection",
                features: [{ type: "Feature", properties: { name: "x", population: 5 }, geometry: { type: "Point", coordinates: [8.5, 47.35] } }],
              },
            },
            area: { area: AREA },
          },
          wait_seconds: 30,
        },
      }),
    ]);
    for (const r of runs) expect(r.status, r.text).toBe(200);
    expect(runs[1]!.body.results.find((x: any) => x.key === "cities").feature_count).toBe(1);
    const { rows } = await sql().query(`SELECT request::text AS request, "requestFingerprint" FROM run`);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.request).not.toMatch(/coordinates|features|"rows":\s*\[/);
      expect(row.request).toMatch(/"removed": "(rows|geojson|area)"/);
      expect(row.request).not.toContain("zurich");
      expect(row.request).not.toContain("8.54");
      expect(row.requestFingerprint).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(await layerCount()).toBe(layersBefore);
    const { rows: named } = await sql().query(`SELECT count(*)::int AS n FROM layer WHERE name ILIKE '%zurich%' OR id ILIKE '%zurich%'`);
    expect(named[0].n).toBe(0);
  });

  it("is removed from a cancelled run too", async () => {
    const waiting = http("POST", `${CITIES}/runs`, { body: { inputs: { ...CITIES_BODY.inputs, area: { area: AREA } } } });
    const r = await waiting;
    await http("POST", r.body.links.cancel);
    const final = await pollRun(r.body.links.self);
    expect(["completed", "cancelled"]).toContain(final.state);
    const request = await waitFor(
      "the area to be removed from the stored request",
      async () => {
        const { rows } = await sql().query(`SELECT request::text AS request FROM run WHERE id = $1`, [final.run_id]);
        return !/coordinates/.test(rows[0].request) && (rows[0].request as string);
      },
      10_000,
    );
    expect(request).toContain(`"area": {"removed": "area"}`);
  });
});
