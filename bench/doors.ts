/**
 * What a run costs through each front door over the plain `POST /runs` (issue 28), against the
 * production build: the same small run (`cities_in_area` on a small area of world-cities,
 * waiting for the result) through the HTTP door, the OGC API - Processes door (synchronous
 * execute, results by value) and the MCP door (a 2025-era SDK client's tool call), in
 * alternating rounds so every door sees the same worker and cache state. Each door's row gives
 * the median and p99 of its time and of its paired difference to the HTTP call of its round.
 * Then a webhook's latency: the same run with a `subscriber` whose `successUri` is a local
 * receiver (127.0.0.1 through the environment's outbound allow-list), from the run's
 * `finished_at` to the moment the receiver has the call. And an input by reference: the same
 * run with the cities of a small region (at most 5,000, the inline limit) sent inline as
 * `{"geojson"}` and as `{"href"}` to a local file server, in alternating rounds.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import pg from "pg";
import { loadWorldCities } from "@/lib/demo/real-data";
import { median, percentile, type TBenchContext, type TBenchRow } from "./harness";
import { AREA } from "./mcp";

const ROUNDS = Number(process.env.BENCH_DOORS_RUNS ?? 60);

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function ok(res: Response, door: string): Promise<void> {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${door} answered ${res.status}: ${text.slice(0, 300)}`);
}

export async function bench(ctx: TBenchContext): Promise<TBenchRow[]> {
  const base = await ctx.app();
  const key = ctx.keys.demo;
  const headers = { "x-api-key": key, "content-type": "application/json" };
  const httpBody = JSON.stringify({
    inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } },
    parameters: { min_population: 10000 },
    wait_seconds: 30,
  });
  const ogcBody = JSON.stringify({ inputs: { cities: { layer_id: "world-cities" }, area: AREA, min_population: 10000 } });
  const mcp = new Client({ name: "bench", version: "1" }, { versionNegotiation: { mode: "legacy" } });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/public/mcp/demo/production`), { requestInit: { headers: { "x-api-key": key } } }));

  const doors: Record<string, () => Promise<void>> = {
    http: async () => ok(await fetch(`${base}/public/api/demo/production/cities-in-area/runs`, { method: "POST", headers, body: httpBody }), "POST /runs"),
    ogc: async () =>
      ok(
        await fetch(`${base}/public/ogc/demo/production/processes/cities-in-area/execution`, {
          method: "POST",
          headers: { ...headers, prefer: "wait=30" },
          body: ogcBody,
        }),
        "OGC execute",
      ),
    mcp: async () => {
      const r = await mcp.callTool({
        name: "cities_in_area",
        arguments: { cities: { layer_id: "world-cities" }, area: { area: AREA }, min_population: 10000, wait_seconds: 30 },
      });
      if ((r.structuredContent as { state?: string } | undefined)?.state !== "completed") throw new Error(`MCP call did not complete: ${JSON.stringify(r)}`);
    },
  };
  const times: Record<string, number[]> = { http: [], ogc: [], mcp: [] };
  for (let i = 0; i <= ROUNDS; i++) {
    for (const [door, call] of Object.entries(doors)) {
      const ms = await timed(call);
      if (i > 0) times[door]!.push(ms); // round 0 warms every door
    }
  }
  await mcp.close();

  const rows: TBenchRow[] = [];
  const http = times.http!;
  rows.push({
    group: "doors",
    metric: `POST /runs, wait until done (${ROUNDS} runs)`,
    value: median(http),
    unit: "ms",
    note: `p99 ${percentile(http, 99).toFixed(0)} ms`,
  });
  const label: Record<string, string> = { ogc: "OGC execute, synchronous (Prefer: wait=30)", mcp: "MCP tool call (2025-era client)" };
  for (const door of ["ogc", "mcp"]) {
    const t = times[door]!;
    const diff = t.map((ms, i) => ms - http[i]!);
    rows.push({
      group: "doors",
      metric: `${label[door]}, over POST /runs (median of ${ROUNDS} paired differences)`,
      value: median(diff),
      unit: "ms",
      note: `p99 of the difference ${percentile(diff, 99).toFixed(0)} ms; the call itself: median ${median(t).toFixed(0)} ms, p99 ${percentile(t, 99).toFixed(0)} ms`,
    });
  }
  await allowLocalHosts(ctx.databaseUrl);
  rows.push(...(await webhookLatency(base, key, httpBody)));
  rows.push(...(await hrefCost(base, key)));
  return rows;
}

/** `finished_at` → the receiver has the `successUri` call, for `ROUNDS` runs (see module doc). */
/** Lets the demo environment's outbound requests reach 127.0.0.1 (the local receiver and file server). */
async function allowLocalHosts(databaseUrl: string): Promise<void> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  await c.query(`UPDATE environment SET "outboundHosts" = ARRAY['127.0.0.1'] WHERE slug = 'production'`);
  await c.end();
}

async function webhookLatency(base: string, key: string, httpBody: string): Promise<TBenchRow[]> {
  const arrived = new Map<string, number>();
  const receiver = createServer((req, res) => {
    const at = Date.now();
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      arrived.set((JSON.parse(body) as { run_id: string }).run_id, at);
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const port = (receiver.address() as AddressInfo).port;
  const body = JSON.stringify({ ...JSON.parse(httpBody), subscriber: { successUri: `http://127.0.0.1:${port}/hook` } });
  const latency: number[] = [];
  try {
    for (let i = 0; i <= ROUNDS; i++) {
      const res = await fetch(`${base}/public/api/demo/production/cities-in-area/runs`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body,
      });
      const doc = (await res.json()) as { run_id: string; state: string; finished_at: string };
      if (doc.state !== "completed") throw new Error(`run with a subscriber: ${JSON.stringify(doc)}`);
      const deadline = Date.now() + 30_000;
      while (!arrived.has(doc.run_id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      if (!arrived.has(doc.run_id)) throw new Error(`no callback for run ${doc.run_id}`);
      if (i > 0) latency.push(arrived.get(doc.run_id)! - Date.parse(doc.finished_at));
    }
  } finally {
    receiver.close();
  }
  return [
    {
      group: "doors",
      metric: `webhook (subscriber successUri on a local receiver): finished_at → call received (${ROUNDS} runs)`,
      value: median(latency),
      unit: "ms",
      note: `p99 ${percentile(latency, 99).toFixed(0)} ms; a pg-boss job queued with the final state, picked up by the worker, signed and sent`,
    },
  ];
}

/** The same run with its cities inline and by `href` (see module doc): the difference, median and p99. */
async function hrefCost(base: string, key: string): Promise<TBenchRow[]> {
  const features = loadWorldCities()
    .features.filter((f) => {
      const [lon, lat] = (f.geometry as { coordinates: number[] }).coordinates;
      return lon! >= 5 && lon! <= 11 && lat! >= 45 && lat! <= 49;
    })
    .slice(0, 5000);
  const file = JSON.stringify({ type: "FeatureCollection", features });
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/geo+json" }).end(file));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cities.geojson`;
  const run = async (cities: unknown) => {
    const body = JSON.stringify({ inputs: { cities, area: { area: AREA } }, parameters: { min_population: 10000 }, wait_seconds: 30 });
    const t0 = performance.now();
    const res = await fetch(`${base}/public/api/demo/production/cities-in-area/runs`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body,
    });
    const doc = (await res.json()) as { state?: string };
    if (doc.state !== "completed") throw new Error(`run with cities ${JSON.stringify(cities).slice(0, 80)}: ${JSON.stringify(doc).slice(0, 300)}`);
    return performance.now() - t0;
  };
  const inline: number[] = [];
  const byRef: number[] = [];
  try {
    for (let i = 0; i <= ROUNDS; i++) {
      const a = await run({ geojson: { type: "FeatureCollection", features } });
      const b = await run({ href: url });
      if (i > 0) {
        inline.push(a);
        byRef.push(b);
      }
    }
  } finally {
    server.close();
  }
  const diff = byRef.map((ms, i) => ms - inline[i]!);
  return [
    {
      group: "doors",
      metric: `input by reference: ${features.length.toLocaleString("en")} cities as {"href"} over the same inline {"geojson"} (median of ${ROUNDS} paired differences)`,
      value: median(diff),
      unit: "ms",
      note: `p99 of the difference ${percentile(diff, 99).toFixed(0)} ms; ${(file.length / 1e6).toFixed(1)} MB fetched by the worker and imported like an upload; inline: median ${median(inline).toFixed(0)} ms, by reference: median ${median(byRef).toFixed(0)} ms, p99 ${percentile(byRef, 99).toFixed(0)} ms`,
    },
  ];
}
