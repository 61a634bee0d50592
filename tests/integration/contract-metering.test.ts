/**
 * Contract of metering and idempotency. Each rule of spec "Metering" has its own test:
 * an accepted run = one ETL run plus its processing time; each 2xx = one API request;
 * refused calls and 422s count nothing; an idempotent replay starts no run. Idempotency-Key
 * (IETF draft): concurrent duplicates create exactly one run, records expire, and the purge
 * job (lib/runs/purge.ts, called here directly against the test database) removes them.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { apiPath, demoUsage, download, http, OTHER_KEY, pollRun, resetRuns, runCount, sql } from "./helpers";
import { CITIES_BODY, expectProblem, ZURICH_AREA as AREA } from "./contract-helpers";

const CITIES = apiPath("cities-in-area");
const BODY = { inputs: { ...CITIES_BODY.inputs, area: { area: AREA } } };

beforeEach(resetRuns);
afterAll(async () => {
  const { db } = await import("@/lib/db");
  await db.$disconnect();
});

describe("metering", () => {
  it("counts an accepted run as one ETL run and its duration as processing time", async () => {
    const r = await http("POST", `${apiPath("country-stats")}/runs`, {
      body: { inputs: { cities: { layer_id: "world-cities" }, countries: { layer_id: "world-countries" } }, wait_seconds: 60 },
    });
    expect(r.status, r.text).toBe(200);
    const { rows } = await sql().query(`SELECT "processingMs", extract(epoch FROM ("finishedAt" - "startedAt")) * 1000 AS span FROM run`);
    expect(rows).toHaveLength(1);
    expect(rows[0].processingMs).toBeGreaterThan(0);
    expect(Math.abs(rows[0].processingMs - Number(rows[0].span))).toBeLessThanOrEqual(50);
    expect(await demoUsage()).toEqual({ etlRuns: 1, processingMs: rows[0].processingMs, apiRequests: 1 });
  });

  it("counts every 2xx answer as one API request, and nothing else", async () => {
    const r = await http("POST", `${CITIES}/runs`, { body: { ...BODY, wait_seconds: 30 } }); // 200: 1
    expect(r.status).toBe(200);
    const before = await demoUsage();
    expect(before).toMatchObject({ etlRuns: 1, apiRequests: 1 });
    const href = r.body.results[0].href;
    expect((await http("GET", r.body.links.self)).status).toBe(200); // 2
    expect((await http("GET", `${CITIES}/runs`)).status).toBe(200); // 3
    const file = await download(href); // 4
    expect(file.status).toBe(200);
    const notModified = await fetch(process.env.TEST_BASE_URL + href, {
      headers: { "x-api-key": process.env.TEST_DEMO_API_KEY!, "if-none-match": file.headers.get("etag")! },
    });
    expect(notModified.status).toBe(304); // 3xx: not counted
    expect((await http("GET", `${apiPath("country-stats")}/openapi.json`, { key: null })).status).toBe(200); // public, not metered
    expect(await demoUsage()).toEqual({ ...before, apiRequests: 4 });
  });

  it("counts refused calls (4xx) and 422s as nothing", async () => {
    const done = await http("POST", `${CITIES}/runs`, { body: { ...BODY, wait_seconds: 30 } });
    const base = await demoUsage();
    const refused = [
      http("POST", `${CITIES}/runs`, { key: null, body: BODY }), // 401
      http("POST", `${CITIES}/runs`, { key: "fapi_" + "Z".repeat(32), body: BODY }), // 401
      http("POST", `${apiPath("nope")}/runs`, { body: BODY }), // 404
      http("POST", `${CITIES}/runs`, { rawBody: "{", headers: { "content-type": "application/json" } }), // 400
      http("POST", `${CITIES}/runs`, { rawBody: "{}", headers: { "content-type": "text/plain" } }), // 415
      http("POST", `${CITIES}/runs`, { body: { inputs: {} } }), // 422
      http("POST", `${CITIES}/runs`, { body: { ...BODY, wait_seconds: 99 } }), // 422
      http("POST", `${CITIES}/runs`, { body: { inputs: { ...BODY.inputs, cities: { layer_id: "missing" } } } }), // 422 (layer)
      http("POST", done.body.links.cancel), // 409
      http("GET", `${done.body.links.self}/results/none`), // 404
      http("GET", `${done.body.results[0].href}?format=bad`), // 422
      http("GET", done.body.links.self, { key: OTHER_KEY }), // 404
      http("GET", `${CITIES}/runs?limit=0`), // 422
    ];
    const answers = await Promise.all(refused);
    for (const a of answers) expect(a.status, a.text).toBeGreaterThanOrEqual(400);
    expect(await runCount()).toBe(1);
    expect(await demoUsage()).toEqual(base);
  });

  it("starts no run for an idempotent replay (the replay is one API request)", async () => {
    const headers = { "idempotency-key": "replay-1" };
    const first = await http("POST", `${CITIES}/runs`, { body: BODY, headers });
    expect(first.status).toBe(202);
    await pollRun(first.body.links.self);
    const before = await demoUsage(); // the POST and the polls (GET, 2xx) so far
    expect(before.etlRuns).toBe(1);
    const replay = await http("POST", `${CITIES}/runs`, { body: { inputs: { area: BODY.inputs.area, cities: BODY.inputs.cities } }, headers });
    expect(replay.status).toBe(202);
    expect(replay.body.run_id).toBe(first.body.run_id);
    expect(replay.headers.get("location")).toBe(first.body.links.self);
    expect(await runCount()).toBe(1);
    expect(await demoUsage()).toEqual({ ...before, apiRequests: before.apiRequests + 1 });
  });
});

describe("Idempotency-Key", () => {
  it("creates exactly one run for 20 concurrent identical requests with one key", async () => {
    const headers = { "idempotency-key": `burst-${Date.now()}` };
    const answers = await Promise.all(Array.from({ length: 20 }, () => http("POST", `${CITIES}/runs`, { body: BODY, headers })));
    for (const a of answers) expect([200, 202], a.text).toContain(a.status);
    expect(new Set(answers.map((a) => a.body.run_id)).size).toBe(1);
    expect(await runCount()).toBe(1);
    expect((await demoUsage()).etlRuns).toBe(1);
    const { rows } = await sql().query(`SELECT count(*)::int AS n FROM idempotency_record`);
    expect(rows[0].n).toBe(1);
  });

  it("keeps concurrent requests with one key but different bodies to one run; the others are 422", async () => {
    const headers = { "idempotency-key": `mixed-${Date.now()}` };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => http("POST", `${CITIES}/runs`, { body: { ...BODY, parameters: { min_population: i } }, headers })),
    );
    const accepted = answers.filter((a) => a.status === 202 || a.status === 200);
    expect(accepted).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 422)) expect(a.body.code).toBe("idempotency_key_reused");
    expect(await runCount()).toBe(1);
  });

  it("treats a repeat that only changes wait_seconds as the same request: it gets the same run and waits as it asks", async () => {
    const headers = { "idempotency-key": `wait-${Date.now()}` };
    const first = await http("POST", `${CITIES}/runs`, { body: BODY, headers });
    expect(first.status, first.text).toBe(202);
    // wait_seconds is not part of the fingerprint (README "Idempotency"): this call waits for the same run.
    const waiting = await http("POST", `${CITIES}/runs`, { body: { ...BODY, wait_seconds: 30 }, headers });
    expect(waiting.status, waiting.text).toBe(200);
    expect(waiting.body.run_id).toBe(first.body.run_id);
    expect(waiting.body.state).toBe("completed");
    const again = await http("POST", `${CITIES}/runs`, { body: { ...BODY, wait_seconds: 0 }, headers });
    expect(again.body.run_id, again.text).toBe(first.body.run_id);
    expect(await runCount()).toBe(1);
    expect((await demoUsage()).etlRuns).toBe(1);
    // What the run does still decides: another parameter is another request.
    const other = await http("POST", `${CITIES}/runs`, { body: { ...BODY, parameters: { min_population: 1 }, wait_seconds: 30 }, headers });
    expect(expectProblem(other, 422).code).toBe("idempotency_key_reused");
  });

  it("scopes keys per consumer: another consumer's same key starts its own run", async () => {
    const headers = { "idempotency-key": "shared-name" };
    const a = await http("POST", `${CITIES}/runs`, { body: BODY, headers });
    const b = await http("POST", `${CITIES}/runs`, { body: BODY, headers, key: OTHER_KEY });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(a.body.run_id).not.toBe(b.body.run_id);
  });

  it("forgets a key once its record expired: the same key starts a new run", async () => {
    const headers = { "idempotency-key": "expiring" };
    const first = await http("POST", `${CITIES}/runs`, { body: BODY, headers });
    expect(first.status).toBe(202);
    const { rows } = await sql().query(`SELECT extract(epoch FROM "expiresAt" - "createdAt")::float8 AS kept FROM idempotency_record`);
    expect(rows[0].kept).toBeGreaterThanOrEqual(24 * 3600 - 5); // at least 24 h
    await sql().query(`UPDATE idempotency_record SET "expiresAt" = now() - interval '1 second'`);
    const second = await http("POST", `${CITIES}/runs`, { body: BODY, headers });
    expect(second.status).toBe(202);
    expect(second.body.run_id).not.toBe(first.body.run_id);
    expect(await runCount()).toBe(2);
    expect((await demoUsage()).etlRuns).toBe(2);
  });

  it("rejects a malformed key with 422 naming the header", async () => {
    const r = await http("POST", `${CITIES}/runs`, { body: BODY, headers: { "idempotency-key": "a".repeat(256) } });
    expect(expectProblem(r, 422).errors[0].field).toBe("/headers/Idempotency-Key");
    expect(await runCount()).toBe(0);
  });
});

describe("purge job", () => {
  it("removes expired idempotency records and keeps live ones; old result files go and the run stays", async () => {
    const a = await http("POST", `${CITIES}/runs`, { body: { ...BODY, wait_seconds: 30 }, headers: { "idempotency-key": "old" } });
    const b = await http("POST", `${CITIES}/runs`, {
      body: { ...BODY, parameters: { min_population: 1 }, wait_seconds: 30 },
      headers: { "idempotency-key": "new" },
    });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    // The other format of each result of the old run, made on first request.
    for (const r of a.body.results) expect((await download(`${r.href}?format=${r.format === "geojson" ? "geoparquet" : "parquet"}`)).status).toBe(200);
    await sql().query(`UPDATE idempotency_record SET "expiresAt" = now() - interval '1 minute' WHERE key = 'old'`);
    await sql().query(`UPDATE run SET "finishedAt" = now() - interval '400 days' WHERE id = $1`, [a.body.run_id]);
    await sql().query(
      `INSERT INTO rate_limit_window ("keyId", "workspaceId", "windowStart", count) VALUES (gen_random_uuid(), gen_random_uuid(), now() - interval '1 hour', 5)`,
    );

    const { purgeExpired } = await import("@/lib/runs/purge");
    const counts = await purgeExpired();
    expect(counts.idempotencyRecords).toBe(1);
    expect(counts.resultFiles).toBe(4); // 2 results x 2 formats of the old run
    expect(counts.rateLimitWindows).toBeGreaterThanOrEqual(1);

    const { rows } = await sql().query(`SELECT key FROM idempotency_record`);
    expect(rows.map((r) => r.key)).toEqual(["new"]);
    expect((await http("GET", a.body.links.self)).status).toBe(200);
    expectProblem(await http("GET", a.body.results[0].href), 404, "not_found");
    expect((await download(b.body.results[0].href)).status).toBe(200);
    // The expired key is free again.
    const again = await http("POST", `${CITIES}/runs`, { body: { ...BODY, wait_seconds: 30 }, headers: { "idempotency-key": "old" } });
    expect(again.body.run_id).not.toBe(a.body.run_id);
  });

  it("removes caller data a final run still holds and fails runs stuck beyond expiry", async () => {
    const r = await http("POST", `${CITIES}/runs`, { body: { ...BODY, wait_seconds: 30 } });
    expect(r.status).toBe(200);
    await sql().query(`UPDATE run SET request = $1 WHERE id = $2`, [
      JSON.stringify({ inputs: { area: { area: AREA }, cities: { layer_id: "world-cities" } }, parameters: {} }),
      r.body.run_id,
    ]);
    // A stuck run: queued long ago, no job.
    await sql().query(
      `INSERT INTO run (id, mode, "workspaceId", "flowApiId", "flowVersionId", "consumerId", "environmentId", state, "requestFingerprint", formats, "createdAt")
       SELECT gen_random_uuid(), 'api', "workspaceId", "flowApiId", "flowVersionId", "consumerId", "environmentId", 'running', 'x', '{}', now() - interval '2 hours' FROM run WHERE id = $1`,
      [r.body.run_id],
    );
    const { purgeExpired } = await import("@/lib/runs/purge");
    const counts = await purgeExpired();
    expect(counts.callerData).toBe(1);
    expect(counts.expiredRuns).toBe(1);
    const { rows } = await sql().query(`SELECT request FROM run WHERE id = $1`, [r.body.run_id]);
    expect(rows[0].request.inputs.area).toEqual({ removed: "area" });
    expect(rows[0].request.inputs.cities).toEqual({ layer_id: "world-cities" });
    const { rows: stuck } = await sql().query(`SELECT state, error FROM run WHERE "requestFingerprint" = 'x'`);
    expect(stuck[0].state).toBe("failed");
  });
});
