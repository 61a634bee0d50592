/**
 * Faults: a worker that dies mid-run, twice, and a database that goes away. The app under
 * test is the one scripts/test.ts started; its process supervisor replaces dead workers.
 *
 * - An accepted run is never lost: after its worker is killed, a new worker retries the
 *   job (pg-boss notices the missed job heartbeat); when the retry's worker dies too, the
 *   job is dead-lettered and the run becomes `failed` (`worker_lost`), never left `running`.
 * - Database down: the API answers 503 problem bodies quickly (never hangs, never 500),
 *   and recovers by itself once the database is back.
 */
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { apiPath, http, pollRun, sql, waitFor } from "./helpers";
import { createFlowApi, SLOW_FLOW, CITIES_BODY } from "./contract-helpers";

/** The pid of the live worker (freshest heartbeat). */
async function workerPid(): Promise<number> {
  const { rows } = await sql().query(`SELECT pid FROM worker_heartbeat WHERE pid > 0 ORDER BY "seenAt" DESC LIMIT 1`);
  return rows[0].pid;
}

async function jobOf(runId: string): Promise<{ state: string; retry_count: number } | undefined> {
  const { rows } = await sql().query(`SELECT state, retry_count FROM pgboss.job WHERE name = 'run-execute' AND data->>'runId' = $1`, [runId]);
  return rows[0];
}

describe("a worker that dies mid-run", () => {
  it("has its run retried by a new worker, and failed (not left running) when that one dies too", async () => {
    const api = await createFlowApi({ definition: SLOW_FLOW });
    const r = await http("POST", `${apiPath(api)}/runs`, { body: CITIES_BODY });
    expect(r.status, r.text).toBe(202);
    const runId: string = r.body.run_id;
    await waitFor("the run to start", async () => (await http("GET", r.body.links.self)).body.state === "running", 30_000);

    const first = await workerPid();
    process.kill(first, "SIGKILL");
    // The supervisor starts a new worker; pg-boss sees the missed heartbeat and retries.
    await waitFor("a new worker", async () => (await workerPid()) !== first && (await http("GET", "/api/health", { key: null })).status === 200, 30_000);
    await waitFor(
      "the job to be retried",
      async () => {
        const job = await jobOf(runId);
        return job && job.retry_count === 1 && job.state === "active";
      },
      45_000,
    );
    expect((await http("GET", r.body.links.self)).body.state).toBe("running");

    const second = await workerPid();
    process.kill(second, "SIGKILL");
    const run = await waitFor(
      "the run to fail",
      async () => {
        const d = (await http("GET", r.body.links.self)).body;
        return d.state === "failed" ? d : undefined;
      },
      60_000,
    );
    expect(run.error.code).toBe("worker_lost");
    expect(run.finished_at).not.toBeNull();
    // Its caller data is gone (like every final path: lib/runs/run-state.ts) and a worker serves again.
    const { rows } = await sql().query(`SELECT request FROM run WHERE id = $1`, [runId]);
    expect(JSON.stringify(rows[0].request)).not.toMatch(/"(geojson|rows|area)":/);
    await waitFor("a healthy service", async () => (await http("GET", "/api/health", { key: null })).status === 200, 30_000);
  }, 180_000);
});

describe("the database going away", () => {
  const admin = () => {
    const url = new URL(process.env.DATABASE_URL!);
    const database = url.pathname.slice(1);
    url.pathname = "/postgres";
    return { client: new pg.Client({ connectionString: url.toString() }), database };
  };

  afterAll(async () => {
    const { client, database } = admin();
    await client.connect();
    await client.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    await client.end();
  });

  it("answers 503 problems quickly while it is down and recovers by itself", async () => {
    const body = {
      inputs: {
        cities: { layer_id: "world-cities" },
        area: {
          area: {
            type: "Polygon",
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [1, 1],
                [0, 1],
                [0, 0],
              ],
            ],
          },
        },
      },
      wait_seconds: 30,
    };
    const path = `${apiPath("cities-in-area")}/runs`;
    expect((await http("POST", path, { body })).status).toBe(200);

    const { client, database } = admin();
    await client.connect();
    try {
      await client.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
      await client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [database]);

      for (const [method, p] of [
        ["POST", path],
        ["GET", `${path}/00000000-0000-0000-0000-000000000000`],
        ["GET", `${path}`],
      ] as const) {
        const t0 = Date.now();
        const res = await http(method, p, method === "POST" ? { body } : {});
        const ms = Date.now() - t0;
        expect(res.status, `${method} ${p}: ${res.text}`).toBe(503);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(res.body.code).toBe("service_unavailable");
        expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/); // no stack traces
        expect(ms).toBeLessThan(10_000);
      }
      const health = await http("GET", "/api/health", { key: null });
      expect(health.status).toBe(503);
      expect(health.body.database.ok).toBe(false);
    } finally {
      await client.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
      await client.end();
    }

    // Recovery: no restart, no manual step.
    await waitFor("the API to answer again", async () => (await http("POST", path, { body })).status === 200, 60_000);
    const again = await http("POST", path, { body });
    expect(again.status, again.text).toBe(200);
    expect(again.body.state).toBe("completed");
    await pollRun(again.body.links.self);
  }, 120_000);
});
