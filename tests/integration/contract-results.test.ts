/**
 * Contract of result downloads: the formats requested in `formats`, the `?format=`
 * override, media types, Content-Disposition file names, ETag with If-None-Match (304),
 * 404 for an unknown key, 422 for a format that does not fit the kind.
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { blobStore } from "@/lib/blobs";
import { apiPath, BASE_URL, SWISS_AREA, DEMO_KEY, download, http, parseCsv, resetRuns, sql } from "./helpers";
import { expectProblem } from "./contract-helpers";

const CITIES = apiPath("cities-in-area");
const AREA = SWISS_AREA;
const PAR1 = Buffer.from("PAR1");

let requested: any; // run with formats {cities: geoparquet, summary: parquet}
let defaults: any; // run without formats

beforeAll(async () => {
  await resetRuns();
  const inputs = { cities: { layer_id: "world-cities" }, area: { area: AREA } };
  const [a, b] = await Promise.all([
    http("POST", `${CITIES}/runs`, {
      body: { inputs, parameters: { min_population: 20000 }, formats: { cities: "geoparquet", summary: "parquet" }, wait_seconds: 30 },
    }),
    http("POST", `${CITIES}/runs`, { body: { inputs, parameters: { min_population: 20000 }, wait_seconds: 30 } }),
  ]);
  expect(a.status, a.text).toBe(200);
  expect(b.status, b.text).toBe(200);
  requested = a.body;
  defaults = b.body;
});

const byKey = (run: any, key: string) => run.results.find((r: any) => r.key === key);

/** A new completed cities-in-area run (its GeoJSON written with it), for tests that make its other format. */
async function freshRun(): Promise<any> {
  const made = await http("POST", `${CITIES}/runs`, {
    body: { inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } }, parameters: { min_population: 20000 }, wait_seconds: 30 },
  });
  expect(made.status, made.text).toBe(200);
  return made.body;
}

/** result-format jobs ever enqueued for the run. */
const formatJobs = async (runId: string): Promise<number> =>
  (await sql().query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'result-format' AND data->>'runId' = $1`, [runId])).rows[0].n;

describe("result downloads", () => {
  it("lists each result in the requested format with its media type, size and count", () => {
    expect(byKey(requested, "cities")).toMatchObject({
      kind: "layer",
      format: "geoparquet",
      media_type: "application/vnd.apache.parquet",
      feature_count: expect.any(Number),
    });
    expect(byKey(requested, "summary")).toMatchObject({ kind: "table", format: "parquet", media_type: "application/vnd.apache.parquet", row_count: 1 });
    expect(byKey(defaults, "cities")).toMatchObject({ format: "geojson", media_type: "application/geo+json" });
    expect(byKey(defaults, "summary")).toMatchObject({ format: "csv", media_type: "text/csv; charset=utf-8" });
    for (const r of [...requested.results, ...defaults.results]) {
      expect(r.href).toBe(`${CITIES}/runs/${r.href.split("/")[7]}/results/${r.key}`);
      expect(r.size_bytes).toBeGreaterThan(0);
    }
  });

  it("serves the requested formats by default, with media types, file names and sizes", async () => {
    const cases: [any, string, string, string][] = [
      [requested, "cities", "application/vnd.apache.parquet", "cities.parquet"],
      [requested, "summary", "application/vnd.apache.parquet", "summary.parquet"],
      [defaults, "cities", "application/geo+json", "cities.geojson"],
      [defaults, "summary", "text/csv; charset=utf-8", "summary.csv"],
    ];
    for (const [run, key, type, name] of cases) {
      const d = await download(byKey(run, key).href);
      expect(d.status).toBe(200);
      expect(d.headers.get("content-type")).toBe(type);
      expect(d.headers.get("content-disposition")).toBe(`attachment; filename="${name}"`);
      expect(d.bytes.byteLength).toBe(byKey(run, key).size_bytes);
      if (type.includes("parquet")) {
        expect(d.bytes.subarray(0, 4)).toEqual(PAR1);
        expect(d.bytes.subarray(-4)).toEqual(PAR1);
      }
    }
  });

  it("lets ?format= pick the other format of the kind", async () => {
    const geo = await download(`${byKey(requested, "cities").href}?format=geojson`);
    expect(geo.status).toBe(200);
    expect(geo.headers.get("content-type")).toBe("application/geo+json");
    expect(geo.headers.get("content-disposition")).toBe('attachment; filename="cities.geojson"');
    const fc = JSON.parse(geo.bytes.toString("utf8"));
    expect(fc.features).toHaveLength(byKey(requested, "cities").feature_count);

    const csv = await download(`${byKey(requested, "summary").href}?format=csv`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(Number(parseCsv(csv.bytes)[0]!.city_count)).toBe(byKey(requested, "cities").feature_count);

    const pq = await download(`${byKey(defaults, "cities").href}?format=geoparquet`);
    expect(pq.headers.get("content-disposition")).toBe('attachment; filename="cities.parquet"');
    expect(pq.bytes.subarray(0, 4)).toEqual(PAR1);
  });

  it("serves one whole file when two workers make the same format at once: each writes its own object, the first row wins, the other object goes", async () => {
    const { makeResultFormatJob } = await import("@/lib/runs/make-result-format");
    const { runPool } = await import("@/worker/runtime/run-pool");
    const runId = defaults.run_id;
    const job = { runId, key: "summary", format: "parquet" as const };
    const signal = new AbortController().signal;
    const ctx = { signal, runner: runPool() };
    await Promise.all([makeResultFormatJob(job, ctx), makeResultFormatJob(job, ctx)]);
    const { rows } = await sql().query(`SELECT "blobKey", "sizeBytes" FROM result_file WHERE "runId" = $1 AND key = 'summary' AND format = 'parquet'`, [runId]);
    expect(rows).toHaveLength(1);
    const objects: string[] = [];
    for await (const b of blobStore().list(`runs/${runId}/summary/parquet`)) objects.push(b.key);
    expect(objects).toEqual([rows[0].blobKey]);
    const d = await download(`${byKey(defaults, "summary").href}?format=parquet`);
    expect(d.bytes.byteLength).toBe(Number(rows[0].sizeBytes));
    expect(d.headers.get("etag")).toBe(`"${createHash("sha256").update(d.bytes).digest("hex")}"`);
  });

  it("answers 422 at once, naming the limit, for a format whose file passes the result size limit, and does not make it again", async () => {
    const { makeResultFormatJob } = await import("@/lib/runs/make-result-format");
    const { runPool } = await import("@/worker/runtime/run-pool");
    const made = await freshRun();
    const runId = made.run_id;
    const job = { runId, key: "cities", format: "geoparquet" as const };
    // The pool's own runner and writer, given a byte budget the file passes (the app's is 200 MB).
    const pool = runPool();
    const runner = Object.assign(Object.create(pool), { format: (task: Parameters<typeof pool.format>[0]) => pool.format({ ...task, maxResultBytes: 1_024 }) });
    await makeResultFormatJob(job, { signal: new AbortController().signal, runner });
    const { rows: failures } = await sql().query(`SELECT "limit" FROM result_format_failure WHERE "runId" = $1 AND key = 'cities' AND format = 'geoparquet'`, [
      runId,
    ]);
    expect(failures).toEqual([{ limit: "result size 0 MB" }]);
    expect((await sql().query(`SELECT 1 FROM result_file WHERE "runId" = $1 AND key = 'cities' AND format = 'geoparquet'`, [runId])).rows).toHaveLength(0);
    const objects: string[] = [];
    for await (const b of blobStore().list(`runs/${runId}/cities/geoparquet`)) objects.push(b.key);
    expect(objects).toEqual([]); // nothing half-written is left

    const jobsBefore = await formatJobs(runId);
    const bad = expectProblem(await http("GET", `${byKey(made, "cities").href}?format=geoparquet`), 422, "validation_failed");
    expect(bad.errors).toEqual([expect.objectContaining({ field: "/query/format", code: "format_over_limit" })]);
    expect(bad.detail).toContain("result size 0 MB");
    expect(bad.detail).toContain("geojson");
    expect(await formatJobs(runId)).toBe(jobsBefore);
    // The format written with the run is served as before.
    expect((await download(byKey(made, "cities").href)).bytes.byteLength).toBe(byKey(made, "cities").size_bytes);
  });

  it("does not retry a format whose making passed the pool's time limit: its downloads answer 422 at once instead of waiting 30 s", async () => {
    const { makeResultFormatJob } = await import("@/lib/runs/make-result-format");
    const { RunPool } = await import("@/worker/runtime/run-pool");
    const made = await freshRun();
    const runId = made.run_id;
    // A real run process, stopped by its pool's timer long before it can read the copy.
    const pool = new RunPool({ size: 1, memoryMb: 256, timeLimitMs: 1 });
    try {
      await makeResultFormatJob({ runId, key: "cities", format: "geoparquet" }, { signal: new AbortController().signal, runner: pool });
    } finally {
      await pool.close();
    }
    const { rows: failures } = await sql().query(`SELECT "limit" FROM result_format_failure WHERE "runId" = $1 AND key = 'cities'`, [runId]);
    expect(failures).toEqual([{ limit: "run time 0 s" }]);

    const jobsBefore = await formatJobs(runId);
    // A wait for the file would end in 503 after 30 s; the failure is answered at once, and nothing is enqueued again.
    const bad = expectProblem(await http("GET", `${byKey(made, "cities").href}?format=geoparquet`), 422, "validation_failed");
    expect(await formatJobs(runId)).toBe(jobsBefore);
    expect(bad.errors).toEqual([expect.objectContaining({ field: "/query/format", code: "format_over_limit" })]);
    expect(bad.detail).toContain('"run time 0 s"');
  });

  it("answers 422 for a format that does not fit the kind and 404 for an unknown key", async () => {
    const bad = expectProblem(await http("GET", `${byKey(defaults, "cities").href}?format=csv`), 422, "validation_failed");
    expect(bad.errors[0].field).toBe("/query/format");
    expectProblem(await http("GET", `${byKey(defaults, "summary").href}?format=geojson`), 422);
    expectProblem(await http("GET", `${byKey(defaults, "summary").href}?format=xlsx`), 422);
    expectProblem(await http("GET", `${defaults.links.self}/results/nope`), 404, "not_found");
  });

  it("serves a file of several MB from the blob store whole or by byte range: its bytes hash to the ETag and add up to size_bytes", async () => {
    // Every city of Europe: a GeoJSON of several MB, streamed into the blob store as it was written.
    const europe = {
      type: "Polygon",
      coordinates: [
        [
          [-10, 35],
          [30, 35],
          [30, 60],
          [-10, 60],
          [-10, 35],
        ],
      ],
    };
    const run = await http("POST", `${CITIES}/runs`, {
      body: { inputs: { cities: { layer_id: "world-cities" }, area: { area: europe } }, parameters: { min_population: 0 }, wait_seconds: 60 },
    });
    expect(run.status, run.text).toBe(200);
    const cities = byKey(run.body, "cities");
    expect(cities.size_bytes).toBeGreaterThan(3 * 1024 * 1024);
    // The file lives in the blob store, whole, under the key its row names.
    const { rows } = await sql().query(`SELECT "blobKey" FROM result_file WHERE "runId" = $1 AND key = 'cities' AND format = 'geojson'`, [run.body.run_id]);
    expect(await blobStore().size(rows[0].blobKey)).toBe(cities.size_bytes);
    // A byte range of it (RFC 9110 §14): 206 with Content-Range, the same bytes as the whole file's.
    const whole = await download(cities.href);
    const part = await fetch(`${BASE_URL}${cities.href}`, { headers: { "x-api-key": DEMO_KEY, range: "bytes=1000-1999" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1000-1999/${cities.size_bytes}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.bytes.subarray(1000, 2000));
    const past = await fetch(`${BASE_URL}${cities.href}`, { headers: { "x-api-key": DEMO_KEY, range: `bytes=${cities.size_bytes}-` } });
    expect(past.status).toBe(416);
    for (const format of ["geojson", "geoparquet"]) {
      const d = await download(`${cities.href}?format=${format}`);
      expect(d.status).toBe(200);
      expect(d.headers.get("etag")).toBe(`"${createHash("sha256").update(d.bytes).digest("hex")}"`);
      if (format === "geojson") {
        expect(d.bytes.byteLength).toBe(cities.size_bytes);
        expect(JSON.parse(d.bytes.toString("utf8")).features).toHaveLength(cities.feature_count);
      } else expect(d.bytes.subarray(0, 4)).toEqual(PAR1);
    }
  });

  it("sends a strong ETag per file and answers 304 to a matching If-None-Match", async () => {
    const href = byKey(defaults, "cities").href;
    const first = await download(href);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const other = await download(`${href}?format=geoparquet`);
    expect(other.headers.get("etag")).not.toBe(etag);
    const again = await fetch(BASE_URL + href, { headers: { "x-api-key": DEMO_KEY, "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    const list = await fetch(BASE_URL + href, { headers: { "x-api-key": DEMO_KEY, "if-none-match": `"nope", ${etag}` } });
    expect(list.status).toBe(304);
    const star = await fetch(BASE_URL + href, { headers: { "x-api-key": DEMO_KEY, "if-none-match": "*" } });
    expect(star.status).toBe(304);
    const stale = await fetch(BASE_URL + href, { headers: { "x-api-key": DEMO_KEY, "if-none-match": '"0000"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });
});
