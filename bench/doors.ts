/**
 * What a run costs through each front door over the plain `POST /runs` (issue 28), against the
 * production build: the same small run (`cities_in_area` on a small area of world-cities,
 * waiting for the result) through the HTTP door, the OGC API - Processes door (synchronous
 * execute, results by value) and the MCP door (a 2025-era SDK client's tool call), in
 * alternating rounds so every door sees the same worker and cache state. Each door's row gives
 * the median and p99 of its time and of its paired difference to the HTTP call of its round.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { median, percentile, type TBenchContext, type TBenchRow } from "./harness";

const ROUNDS = Number(process.env.BENCH_DOORS_RUNS ?? 60);
const AREA = {
  type: "Polygon",
  coordinates: [
    [
      [8.4, 47.3],
      [8.7, 47.3],
      [8.7, 47.45],
      [8.4, 47.45],
      [8.4, 47.3],
    ],
  ],
};

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
  return rows;
}
