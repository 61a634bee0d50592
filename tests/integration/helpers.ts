/**
 * Helpers for integration tests: HTTP against the running app (scripts/test.ts starts it),
 * a direct Postgres connection for assertions and resets, and the real data sets for
 * independent reference computations (plain loops, no index, no engine code).
 */
import pg from "pg";
import { parse } from "csv-parse/sync";
import { booleanPointInPolygon } from "@turf/turf";
import type { Feature, MultiPolygon, Polygon } from "geojson";
import { assertLocalDatabase } from "@/lib/database/test-guard";
import { loadWorldCities, loadWorldCountries } from "@/lib/demo/real-data";
import type { TFeature } from "@/lib/engine/types";
import { apiBasePath } from "@/lib/runs/scope";

export const BASE_URL = process.env.TEST_BASE_URL!;
export const DEMO_KEY = process.env.TEST_DEMO_API_KEY!;
export const OTHER_KEY = process.env.TEST_OTHER_API_KEY!;

export function apiPath(api: string): string {
  return apiBasePath({ organization: "demo", environment: "production", api });
}

export interface THttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** One HTTP call; JSON bodies are parsed. */
export async function http<T = any>(
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<THttpResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== null) headers["x-api-key"] = opts.key ?? DEMO_KEY;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(BASE_URL + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if (/json/.test(res.headers.get("content-type") ?? "")) parsed = text ? JSON.parse(text) : null;
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** Polls GET links.self until the run is final. */
export async function pollRun(self: string, key = DEMO_KEY, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const r = await http("GET", self, { key });
    if (r.status !== 200) throw new Error(`GET ${self}: ${r.status} ${r.text}`);
    if (["completed", "failed", "cancelled"].includes(r.body.state)) return r.body;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`run ${self} did not finish in ${timeoutMs} ms`);
}

/** Downloads a result; returns bytes and headers. */
export async function download(href: string, key = DEMO_KEY): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(BASE_URL + href, { headers: { "x-api-key": key } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

export function parseCsv(bytes: Buffer): Record<string, string>[] {
  return parse(bytes, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

let pool: pg.Pool | undefined;
export function sql(): pg.Pool {
  if (!pool) {
    assertLocalDatabase(process.env.DATABASE_URL!);
    pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 3 });
    // Fault tests terminate connections on purpose; an idle client's error must not crash the run.
    pool.on("error", () => {});
  }
  return pool;
}

/** Usage totals of the demo workspace. */
export async function demoUsage(): Promise<{ etlRuns: number; processingMs: number; apiRequests: number }> {
  const { rows } = await sql().query(`
    SELECT coalesce(sum(u."etlRuns"),0)::int AS etl, coalesce(sum(u."processingMs"),0)::bigint AS ms, coalesce(sum(u."apiRequests"),0)::int AS req
    FROM usage_counter u JOIN workspace w ON w.id = u."workspaceId" WHERE w.slug = 'demo'`);
  return { etlRuns: rows[0].etl, processingMs: Number(rows[0].ms), apiRequests: rows[0].req };
}

/** Counts runs in the database (all consumers). */
export async function runCount(): Promise<number> {
  const { rows } = await sql().query(`SELECT count(*)::int AS n FROM run`);
  return rows[0].n;
}

/** Removes runs, results, idempotency records and usage: a clean slate between tests. */
export async function resetRuns(): Promise<void> {
  // A run of the previous test may still be finishing in the worker; TRUNCATE can then lose a
  // deadlock against its transaction (40P01). Postgres rolled ours back: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      await sql().query(`TRUNCATE run, run_result, result_format_failure, result_file, webhook_delivery, idempotency_record, usage_counter`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== "40P01" || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

let cities: TFeature[] | undefined;
let countries: TFeature[] | undefined;
export function referenceCities(): TFeature[] {
  return (cities ??= loadWorldCities().features);
}
export function referenceCountries(): TFeature[] {
  return (countries ??= loadWorldCountries().features);
}

function bboxOfPolygon(g: Polygon | MultiPolygon): [number, number, number, number] {
  let a = Infinity,
    b = Infinity,
    c = -Infinity,
    d = -Infinity;
  const rings = g.type === "Polygon" ? g.coordinates : g.coordinates.flat();
  for (const ring of rings)
    for (const [x, y] of ring) {
      if (x! < a) a = x!;
      if (y! < b) b = y!;
      if (x! > c) c = x!;
      if (y! > d) d = y!;
    }
  return [a, b, c, d];
}

/** Plain loop: the cities inside `polygon`, each tested with turf's point-in-polygon. */
export function citiesInPolygon(polygon: Polygon | MultiPolygon, minPopulation = 0): TFeature[] {
  const [a, b, c, d] = bboxOfPolygon(polygon);
  const shape: Feature<Polygon | MultiPolygon> = { type: "Feature", geometry: polygon, properties: {} };
  return referenceCities().filter((f) => {
    const [x, y] = (f.geometry as { coordinates: number[] }).coordinates as [number, number];
    if (x < a || x > c || y < b || y > d) return false;
    return (f.properties.population as number) >= minPopulation && booleanPointInPolygon([x, y], shape);
  });
}

/** Polls `fn` every 250 ms until it returns a truthy value; throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

// A pentagon over Switzerland and its neighbours (not a rectangle, so the polygon test matters).
export const SWISS_AREA: Polygon = {
  type: "Polygon",
  coordinates: [
    [
      [5.9, 45.8],
      [10.5, 45.8],
      [10.5, 47.8],
      [8.0, 48.2],
      [5.9, 47.0],
      [5.9, 45.8],
    ],
  ],
};
