/**
 * Contract under faults the tests can cause without stopping processes: no live worker
 * (heartbeats suppressed by a trigger, the existing ones aged) makes POST /runs answer 503
 * with a problem body while reading runs keeps working, and the API recovers by itself once
 * a worker beats again. (Database down and worker crashes are covered by the fault tests of
 * the run pipeline.)
 */
import { afterAll, describe, expect, it } from "vitest";
import { apiPath, http, runCount, resetRuns, sql, waitFor } from "./helpers";
import { expectProblem, ZURICH_AREA as AREA } from "./contract-helpers";

const CITIES = apiPath("cities-in-area");
const BODY = { inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } } };

async function restoreHeartbeats(): Promise<void> {
  await sql().query(`DROP TRIGGER IF EXISTS contract_no_heartbeat ON worker_heartbeat`);
  await sql().query(`DROP FUNCTION IF EXISTS contract_no_heartbeat()`);
}

afterAll(restoreHeartbeats);

/**
 * POST /runs with a malformed body: 503 while the web process believes no worker is alive
 * (checked before the body is read), 400 otherwise; it never creates a run.
 */
async function probe(): Promise<number> {
  return (await http("POST", `${CITIES}/runs`, { rawBody: "{", headers: { "content-type": "application/json" } })).status;
}

describe("worker down", () => {
  it("answers 503 to POST /runs, keeps GET working, and recovers when a worker beats again", async () => {
    await resetRuns();
    const done = await http("POST", `${CITIES}/runs`, { body: { ...BODY, wait_seconds: 30 } });
    expect(done.status).toBe(200);

    await sql().query(`CREATE OR REPLACE FUNCTION contract_no_heartbeat() RETURNS trigger AS $$ BEGIN RETURN NULL; END $$ LANGUAGE plpgsql`);
    await sql().query(`CREATE TRIGGER contract_no_heartbeat BEFORE INSERT OR UPDATE ON worker_heartbeat FOR EACH ROW EXECUTE FUNCTION contract_no_heartbeat()`);
    await sql().query(`ALTER TABLE worker_heartbeat DISABLE TRIGGER contract_no_heartbeat`);
    await sql().query(`UPDATE worker_heartbeat SET "seenAt" = now() - interval '1 hour'`);
    await sql().query(`ALTER TABLE worker_heartbeat ENABLE TRIGGER contract_no_heartbeat`);
    try {
      // The worker-alive answer is cached ~1.5 s per process: wait until POST sees it gone.
      await waitFor("POST /runs to see no live worker", async () => (await probe()) === 503, 20_000);
      const before = await runCount();
      const r = await http("POST", `${CITIES}/runs`, { body: BODY });
      expectProblem(r, 503, "service_unavailable");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await runCount()).toBe(before);
      expect((await http("GET", done.body.links.self)).status).toBe(200);
      expect((await http("GET", `${CITIES}/runs`)).status).toBe(200);
      expect((await http("GET", done.body.results[0].href)).status).toBe(200);
      expect((await http("GET", "/api/health", { key: null })).status).toBe(503);
    } finally {
      await restoreHeartbeats();
    }
    // Recovery: the worker beats every 5 s; the cache expires after ~1.5 s.
    await waitFor("POST /runs to see a live worker again", async () => (await probe()) !== 503, 20_000);
    expect((await http("POST", `${CITIES}/runs`, { body: BODY })).status).toBe(202);
  });
});
