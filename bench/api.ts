/**
 * Benchmarks of the public run API (issue 4), against the production build:
 * - POST /runs on the 202 path at 32 connections (autocannon): runs accepted/s, p50/p99;
 * - the overhead of `wait_seconds`: time from the run's `finished_at` to the 200 response;
 * - the floors: a bare route handler (the catch-all of /public, `app/public/[[...path]]`, whose
 *   404 problem does no I/O), and one INSERT + NOTIFY in Postgres at 32 connections, so the
 *   table shows how close the real path comes.
 * A trivial flow ("echo": limit 1 row of the caller's rows) keeps the worker's share small.
 */
import autocannon from "autocannon";
import pg from "pg";
import { percentile, median, type TBenchContext, type TBenchRow } from "./harness";
import { startApp, waitHealthy } from "../scripts/app-processes";

const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);

const ECHO_FLOW = {
  description: "Returns the first caller row (benchmark flow)",
  inputs: [{ name: "rows", kind: "table" }],
  parameters: [],
  steps: [{ id: "first", type: "limit", source: "rows", n: 1 }],
  results: [{ key: "out", kind: "table", from: "first" }],
};

/** Publishes the echo flow as API `bench-echo` in demo/production, granted to both demo consumers. */
async function publishEcho(databaseUrl: string): Promise<void> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query("BEGIN");
    const ws = (await c.query(`SELECT w.id, w."organizationId" FROM workspace w WHERE w.slug = 'demo'`)).rows[0];
    const env = (await c.query(`SELECT id FROM environment WHERE slug = 'production' AND "organizationId" = $1`, [ws.organizationId])).rows[0];
    const flow = (await c.query(`INSERT INTO flow (id, "workspaceId", name) VALUES (gen_random_uuid(), $1, 'Bench echo') RETURNING id`, [ws.id])).rows[0];
    const ver = (
      await c.query(`INSERT INTO flow_version (id, "flowId", version, definition) VALUES (gen_random_uuid(), $1, 1, $2) RETURNING id`, [
        flow.id,
        JSON.stringify(ECHO_FLOW),
      ])
    ).rows[0];
    const api = (
      await c.query(
        `INSERT INTO flow_api (id, "organizationId", "workspaceId", "flowId", "selectedFlowVersionId", slug, name, status)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, 'bench-echo', 'Bench echo', 'published') RETURNING id`,
        [ws.organizationId, ws.id, flow.id, ver.id],
      )
    ).rows[0];
    const rel = (
      await c.query(`INSERT INTO release (id, "flowApiId", "environmentId", "flowVersionId", number) VALUES (gen_random_uuid(), $1, $2, $3, 1) RETURNING id`, [
        api.id,
        env.id,
        ver.id,
      ])
    ).rows[0];
    await c.query(`INSERT INTO environment_api ("environmentId", "flowApiId", "releaseId", "updatedAt") VALUES ($1, $2, $3, now())`, [env.id, api.id, rel.id]);
    await c.query(`INSERT INTO access_grant ("consumerId", "flowApiId") SELECT id, $1 FROM consumer WHERE "environmentId" = $2`, [api.id, env.id]);
    await c.query("COMMIT");
  } finally {
    await c.end();
  }
}

function load(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** N concurrent loops of one INSERT + NOTIFY each (autocommit), for `seconds`. */
async function insertNotifyFloor(databaseUrl: string, seconds: number): Promise<{ rate: number; p50: number; p99: number }> {
  const setup = new pg.Client({ connectionString: databaseUrl });
  await setup.connect();
  await setup.query(`CREATE TABLE IF NOT EXISTS bench_floor (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), body jsonb, created_at timestamptz DEFAULT now())`);
  await setup.end();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONNECTIONS });
  const latencies: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = await pool.connect();
      try {
        while (Date.now() < deadline) {
          const t0 = performance.now();
          await client.query(`WITH r AS (INSERT INTO bench_floor (body) VALUES ($1) RETURNING id) SELECT pg_notify('bench_floor', id::text) FROM r`, [
            '{"x":1}',
          ]);
          latencies.push(performance.now() - t0);
        }
      } finally {
        client.release();
      }
    }),
  );
  await pool.end();
  return { rate: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/**
 * Starts a web server without a local worker and keeps a heartbeat row fresh for a
 * "remote" worker, as in a deployment whose workers run on other machines: the API's
 * acceptance capacity is then measured without the worker's CPU on the same two cores.
 */
async function webOnly(ctx: TBenchContext): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = 3990 + Math.floor(Math.random() * 9);
  const app = startApp({
    port,
    host: "127.0.0.1",
    env: { ...process.env, DATABASE_URL: ctx.databaseUrl, NODE_ENV: "production" },
    quiet: true,
    worker: false,
  });
  const hb = new pg.Client({ connectionString: ctx.databaseUrl });
  await hb.connect();
  const beat = () =>
    hb.query(
      `INSERT INTO worker_heartbeat (id, hostname, pid, "startedAt", "seenAt") VALUES ('bench-remote', 'remote', 0, now() AT TIME ZONE 'utc', now() AT TIME ZONE 'utc')
       ON CONFLICT (id) DO UPDATE SET "seenAt" = now() AT TIME ZONE 'utc'`,
    );
  await beat();
  const timer = setInterval(() => void beat().catch(() => {}), 2_000);
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, 60_000);
  return {
    url,
    stop: async () => {
      clearInterval(timer);
      await hb.query(`DELETE FROM worker_heartbeat WHERE id = 'bench-remote'`);
      await hb.end();
      await app.stop();
    },
  };
}

async function drain(ctx: TBenchContext): Promise<void> {
  const db = new pg.Client({ connectionString: ctx.databaseUrl });
  await db.connect();
  const t0 = Date.now();
  for (let i = 0; i < 1200; i++) {
    const { rows: r } = await db.query(`SELECT count(*)::int AS n FROM run WHERE state IN ('queued','running')`);
    if (r[0].n === 0) break;
    if (i % 20 === 0) ctx.log(`  backlog: ${r[0].n} runs not final`);
    await new Promise((res) => setTimeout(res, 500));
  }
  ctx.log(`  backlog drained in ${Date.now() - t0} ms`);
  await db.end();
}

export async function bench(ctx: TBenchContext): Promise<TBenchRow[]> {
  await publishEcho(ctx.databaseUrl);
  const rows: TBenchRow[] = [];
  const body = JSON.stringify({
    inputs: {
      rows: {
        rows: [
          { id: 1, name: "a" },
          { id: 2, name: "b" },
        ],
      },
    },
  });
  const headers = { "content-type": "application/json", "x-api-key": ctx.keys.demo };
  const path = "/public/api/demo/production/bench-echo/runs";
  const littles = `Little's law: 32 conns at 500 req/s means a mean of 64 ms`;

  // 1. Web server alone (workers elsewhere): the API's own capacity and its floors.
  const web = await webOnly(ctx);
  try {
    ctx.log(`floor: bare route handler, ${CONNECTIONS} connections, ${DURATION_S} s`);
    // No route of its own: the /public catch-all answers (a 404 problem, no I/O), the cheapest handler the app has.
    const bare = `${web.url}/public/bench-floor`;
    await load({ url: bare, method: "POST", body, headers, connections: CONNECTIONS, duration: 2 });
    const floor = await load({ url: bare, method: "POST", body, headers, connections: CONNECTIONS, duration: DURATION_S });
    ctx.log(`  ${floor.requests.average} req/s, p99 ${floor.latency.p99} ms`);
    rows.push({
      group: "api",
      metric: `floor: bare route handler (the /public catch-all), ${CONNECTIONS} conns`,
      value: floor.requests.average,
      unit: "req/s",
      note: `POST /public/bench-floor, the catch-all's 404 problem (no I/O); p50 ${floor.latency.p50} ms, p99 ${floor.latency.p99} ms`,
    });

    ctx.log("floor: INSERT + NOTIFY in Postgres");
    const pgFloor = await insertNotifyFloor(ctx.databaseUrl, DURATION_S);
    ctx.log(`  ${pgFloor.rate.toFixed(0)} tx/s, p99 ${pgFloor.p99.toFixed(1)} ms`);
    rows.push({
      group: "api",
      metric: `floor: INSERT + NOTIFY, ${CONNECTIONS} conns`,
      value: pgFloor.rate,
      unit: "tx/s",
      note: `p50 ${pgFloor.p50.toFixed(1)} ms, p99 ${pgFloor.p99.toFixed(1)} ms`,
    });

    ctx.log(`POST /runs, web only, ${CONNECTIONS} connections, ${DURATION_S} s`);
    await load({ url: web.url + path, method: "POST", body, headers, connections: CONNECTIONS, duration: 2 });
    const r = await load({ url: web.url + path, method: "POST", body, headers, connections: CONNECTIONS, duration: DURATION_S });
    const accepted = r["2xx"] / DURATION_S;
    ctx.log(`  ${accepted.toFixed(0)} runs/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`);
    rows.push(
      {
        group: "api",
        metric: `POST /runs 202 (workers elsewhere), ${CONNECTIONS} conns`,
        value: accepted,
        unit: "runs/s",
        target: ">= 500",
        ok: accepted >= 500,
        note: `non-2xx ${r.non2xx}; each run durable before 202`,
      },
      {
        group: "api",
        metric: "  latency p50 / p99",
        value: r.latency.p99,
        unit: "ms (p99)",
        target: "p99 < 50",
        ok: r.latency.p99 < 50,
        note: `p50 ${r.latency.p50} ms; ${littles}`,
      },
    );
  } finally {
    await web.stop();
  }

  // 2. The whole system on this machine: the worker executes the runs on the same 2 cores.
  const base = await ctx.app();
  await drain(ctx);
  ctx.log(`POST /runs, web + worker, ${CONNECTIONS} connections, ${DURATION_S} s`);
  const all = await load({ url: base + path, method: "POST", body, headers, connections: CONNECTIONS, duration: DURATION_S });
  const acceptedAll = all["2xx"] / DURATION_S;
  ctx.log(`  ${acceptedAll.toFixed(0)} runs/s, p50 ${all.latency.p50} ms, p99 ${all.latency.p99} ms`);
  rows.push({
    group: "api",
    metric: `POST /runs 202 (worker on the same 2 cores), ${CONNECTIONS} conns`,
    value: acceptedAll,
    unit: "runs/s",
    note: `p50 ${all.latency.p50} ms, p99 ${all.latency.p99} ms, non-2xx ${all.non2xx}`,
  });

  // 3. wait_seconds: how long after finished_at the waiting request is answered.
  ctx.log("wait_seconds overhead: finished_at -> 200 response");
  await drain(ctx);
  const overheads: number[] = [];
  const waitBody = JSON.stringify({ ...JSON.parse(body), wait_seconds: 30 });
  for (let i = 0; i < 200; i++) {
    const res = await fetch(base + path, { method: "POST", headers, body: waitBody });
    const received = Date.now();
    const doc = (await res.json()) as { state: string; finished_at: string };
    if (res.status !== 200) throw new Error(`wait_seconds run answered ${res.status}`);
    overheads.push(received - Date.parse(doc.finished_at));
  }
  rows.push(
    {
      group: "api",
      metric: "wait_seconds overhead (finished_at -> 200), p50",
      value: median(overheads),
      unit: "ms",
      note: "200 sequential runs of a trivial flow; 1 ms clock resolution",
    },
    {
      group: "api",
      metric: "wait_seconds overhead (finished_at -> 200), p99",
      value: percentile(overheads, 99),
      unit: "ms",
      target: "< 20",
      ok: percentile(overheads, 99) < 20,
    },
  );
  return rows;
}
