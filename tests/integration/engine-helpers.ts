/**
 * Helpers for the engine integration tests: publish a flow of a test's own as an API of the
 * demo workspace, download a result in every format of its kind and read each file back with
 * a reader other than the writer (JSON.parse, csv-parse, hyparquet + an independent WKB
 * decoder), and look at the worker's pg-boss job of a run.
 */
import { expect } from "vitest";
import type { Geometry } from "geojson";
import { publishDemoApi } from "@/lib/demo/seed";
import { decodeWkb, geoMetadata, readParquet, schemaTypes } from "@/lib/formats/test-support";
import { apiPath, BASE_URL, DEMO_KEY, http, parseCsv, sql, type THttpResult } from "./helpers";

/**
 * The app's HTTP server closes idle keep-alive sockets after 5 s, and tests here pause for
 * seconds computing references: a request that picked such a socket as it closed would fail
 * with "other side closed". These requests take a connection of their own (Connection: close)
 * instead, so none can meet a closing socket.
 */
const OWN_CONNECTION = { connection: "close" };

/** POST /runs on a connection of its own. */
export function postRun(api: string, body: object): Promise<THttpResult> {
  return http("POST", `${apiPath(api)}/runs`, { body, headers: OWN_CONNECTION });
}

/** Downloads a result on a connection of its own. */
async function download(href: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(BASE_URL + href, { headers: { "x-api-key": DEMO_KEY, ...OWN_CONNECTION } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Publishes `definition` as API `slug` (grants for both demo consumers); idempotent. */
export async function publishTestApi(slug: string, definition: unknown): Promise<void> {
  await publishDemoApi({ flowName: `Test ${slug}`, apiName: `Test ${slug}`, apiSlug: slug, description: `Test flow ${slug}`, definition });
}

export interface TLayerFiles {
  /** Features of the GeoJSON file. */
  geojson: { geometry: Geometry | null; properties: Record<string, unknown> }[];
  /** Rows of the GeoParquet file, geometry decoded from WKB. */
  geoparquet: { geometry: Geometry | null; properties: Record<string, unknown> }[];
  /** The `geo` metadata of the GeoParquet file. */
  geo: any;
  /** Parquet column name -> physical type (e.g. "INT32", "BYTE_ARRAY/UTF8"). */
  types: Record<string, string>;
}

export interface TTableFiles {
  /** CSV rows as text, plus the header. */
  csv: Record<string, string>[];
  csvHeader: string[];
  /** Parquet rows (typed values). */
  parquet: Record<string, unknown>[];
  parquetColumns: string[];
  types: Record<string, string>;
}

function hrefOf(run: any, key: string): string {
  const r = run.results?.find((x: any) => x.key === key);
  if (!r) throw new Error(`run has no result ${key}: ${JSON.stringify(run)}`);
  return r.href.split("?")[0];
}

async function fetchOk(href: string, format: string, mediaType: string): Promise<Buffer> {
  const d = await download(`${href}?format=${format}`);
  expect(d.status, `${href}?format=${format}`).toBe(200);
  expect(d.headers.get("content-type")).toBe(mediaType);
  return d.bytes;
}

/** Downloads a layer result as GeoJSON and as GeoParquet and reads both back. */
export async function layerFiles(run: any, key: string): Promise<TLayerFiles> {
  const href = hrefOf(run, key);
  const gj = JSON.parse((await fetchOk(href, "geojson", "application/geo+json")).toString("utf8"));
  expect(gj.type).toBe("FeatureCollection");
  const pq = await fetchOk(href, "geoparquet", "application/vnd.apache.parquet");
  const { metadata, rows } = await readParquet(pq, { raw: true });
  const geo = geoMetadata(metadata);
  return {
    geojson: gj.features.map((f: any) => ({ geometry: f.geometry, properties: f.properties })),
    geoparquet: rows.map((r) => {
      const { geometry, ...raw } = r;
      // INT64 columns read back as bigints; compare them as the numbers the GeoJSON holds.
      const properties = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v]));
      return { geometry: geometry == null ? null : decodeWkb(geometry as Uint8Array), properties };
    }),
    geo,
    types: schemaTypes(metadata),
  };
}

/** Downloads a table result as CSV and as Parquet and reads both back. */
export async function tableFiles(run: any, key: string): Promise<TTableFiles> {
  const href = hrefOf(run, key);
  const csvBytes = await fetchOk(href, "csv", "text/csv; charset=utf-8");
  const csvHeader = csvBytes.toString("utf8").split("\r\n")[0]!.split(",");
  const pq = await fetchOk(href, "parquet", "application/vnd.apache.parquet");
  const { metadata, rows } = await readParquet(pq);
  return {
    csv: parseCsv(csvBytes),
    csvHeader,
    parquet: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v]))),
    parquetColumns: metadata.schema.slice(1).map((e) => e.name),
    types: schemaTypes(metadata),
  };
}

/** Checks the GeoParquet 1.1 `geo` metadata against the geometries actually in the file. */
export function expectGeoMetadata(files: TLayerFiles, types: string[]): void {
  expect(files.geo).toMatchObject({ version: "1.1.0", primary_column: "geometry", columns: { geometry: { encoding: "WKB" } } });
  expect(files.geo.columns.geometry.geometry_types).toEqual(types);
  expect(files.types.geometry).toBe("BYTE_ARRAY");
  let a = Infinity,
    b = Infinity,
    c = -Infinity,
    d = -Infinity;
  const visit = (x: unknown): void => {
    if (Array.isArray(x) && typeof x[0] === "number") {
      a = Math.min(a, x[0] as number);
      c = Math.max(c, x[0] as number);
      b = Math.min(b, x[1] as number);
      d = Math.max(d, x[1] as number);
    } else if (Array.isArray(x)) x.forEach(visit);
  };
  for (const f of files.geoparquet) if (f.geometry && "coordinates" in f.geometry) visit(f.geometry.coordinates);
  if (Number.isFinite(a)) expect(files.geo.columns.geometry.bbox).toEqual([a, b, c, d]);
}

/** The pg-boss job that executed a run: its state and when it completed. */
export async function jobOfRun(runId: string): Promise<{ state: string; completedOn: Date | null; startedOn: Date | null } | null> {
  const { rows } = await sql().query(
    `SELECT state, completed_on, started_on FROM pgboss.job WHERE name = 'run-execute' AND data->>'runId' = $1 ORDER BY created_on DESC LIMIT 1`,
    [runId],
  );
  return rows[0] ? { state: rows[0].state, completedOn: rows[0].completed_on, startedOn: rows[0].started_on } : null;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
