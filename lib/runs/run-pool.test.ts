// The run pool with real child processes: results and files of a small run, a run over its memory
// budget or its time limit failing with ResourceLimitError naming the limit while the pool
// keeps serving, cancellation, the layer cache (content sent once per process), and memory
// given back after a large run.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { NEARBY_CITIES } from "@/lib/demo/flows";
import { validateFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import { applyParameterDefaults } from "@/lib/flows/run-request";
import { encodeLayerData } from "@/lib/layers/layer-data";
import { ResourceLimitError } from "@/lib/errors";
import { classifyRunFailure } from "@/lib/runs/classify-failure";
import { MAX_CHUNKS_IN_FLIGHT } from "@/lib/runs/run-process-protocol";
import { RunPool, type TEncodedChunk, type TEncodedFile, type TPoolLimits, type TRunTask } from "@/lib/runs/run-pool";
import type { TFeature } from "@/lib/engine/types";

function flow(): TFlowVersion {
  const r = validateFlowVersion(NEARBY_CITIES);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.flow;
}

/** nearby-cities with its matches passed through a `limit` step, which makes every match a row object (distance_pairs alone keeps them as pairs). */
function flowWithMatchRows(): TFlowVersion {
  const doc = structuredClone(NEARBY_CITIES) as unknown as { steps: object[]; results: { from: string }[] };
  doc.steps.push({ id: "match_rows", type: "limit", source: "pairs", n: 1_000_000_000 });
  doc.results[1]!.from = "match_rows";
  const r = validateFlowVersion(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.flow;
}

/** `n` cities on a grid of 0.01° around (lon0, lat0). */
function cities(n: number, lon0 = 8, lat0 = 47): TFeature[] {
  return Array.from({ length: n }, (_, i) => ({
    type: "Feature",
    geometry: { type: "Point", coordinates: [lon0 + (i % 100) * 0.01, lat0 + Math.floor(i / 100) * 0.01] },
    properties: { geonameid: i, name: `c${i}`, country: "CH", population: 1000 + i },
  }));
}

function haversineKm(a: number[], b: number[]): number {
  const rad = Math.PI / 180;
  const dLat = (b[1]! - a[1]!) * rad;
  const dLon = (b[0]! - a[0]!) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1]! * rad) * Math.cos(b[1]! * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

let pool: RunPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function newPool(limits: Partial<TPoolLimits> = {}): RunPool {
  pool = new RunPool({ size: 2, memoryMb: 128, timeLimitMs: 60_000, ...limits });
  return pool;
}

/** Collects streamed chunks per file; `body(file)` checks them against the file's size and checksum and joins them. */
function chunkCollector() {
  const chunks = new Map<string, TEncodedChunk[]>();
  return {
    onChunk: (c: TEncodedChunk) => {
      const list = chunks.get(`${c.key}.${c.format}`) ?? [];
      list.push(c);
      chunks.set(`${c.key}.${c.format}`, list);
    },
    body: (f: TEncodedFile): Buffer => {
      const list = chunks.get(`${f.key}.${f.format}`) ?? [];
      expect(list.map((c) => c.seq)).toEqual(Array.from({ length: f.chunks }, (_, i) => i));
      const body = Buffer.concat(list.map((c) => c.bytes));
      expect(body.byteLength).toBe(f.sizeBytes);
      expect(createHash("sha256").update(body).digest("hex")).toBe(f.sha256);
      return body;
    },
  };
}

function task(layer: TFeature[], places: { id: string; lon: number; lat: number }[], radius: number, extra: Partial<TRunTask> = {}) {
  const f = flow();
  const files: TEncodedFile[] = [];
  const collected = chunkCollector();
  let loads = 0;
  const content = encodeLayerData({ kind: "features", features: layer });
  const t: TRunTask = {
    flow: f,
    inputs: { places: { value: { rows: places } }, cities: { layer: { id: "cities", version: 1 } } },
    params: applyParameterDefaults(f, { radius_km: radius }),
    layers: [{ id: "cities", version: 1, kind: "features" }],
    loadLayer: async () => {
      loads++;
      return content;
    },
    files: [
      { key: "places", format: "geojson" },
      { key: "matches", format: "csv" },
    ],
    maxResultBytes: 50 * 1024 * 1024,
    maxRows: 1e9,
    onChunk: collected.onChunk,
    onFile: (file) => files.push(file),
    ...extra,
  };
  return { t, files, body: collected.body, loads: () => loads };
}

describe("RunPool", () => {
  it("runs a flow in a process and sends the requested files; the layer is sent once per process", async () => {
    const p = newPool();
    const layer = cities(500);
    const places = [
      { id: "a", lon: 8.1, lat: 47.01 },
      { id: "b", lon: 9.5, lat: 48 },
    ];
    const expected = places.map((pl) => layer.filter((c) => haversineKm([pl.lon, pl.lat], (c.geometry as { coordinates: number[] }).coordinates) <= 5).length);
    const { t, files, body, loads } = task(layer, places, 5);
    const proc = await p.acquire();
    const results = await proc.run(t);
    expect(results.find((r) => r.key === "matches")?.rowCount).toBe(expected[0]! + expected[1]!);
    expect(results.find((r) => r.key === "places")?.featureCount).toBe(2);
    expect(files.map((f) => `${f.key}.${f.format}`)).toEqual(["places.geojson", "matches.csv"]);
    const csv = body(files[1]!).toString("utf8").trim().split("\r\n");
    expect(csv.length - 1).toBe(expected[0]! + expected[1]!);
    // the other formats of the same results, later
    const more: TEncodedFile[] = [];
    const moreChunks = chunkCollector();
    await proc.encode([{ key: "matches", format: "parquet" }], { onChunk: moreChunks.onChunk, onFile: (f) => more.push(f) });
    expect(more).toHaveLength(1);
    expect(moreChunks.body(more[0]!).subarray(0, 4).toString()).toBe("PAR1");
    proc.release();
    // the same process is reused, with its cached layer
    const again = await p.acquire();
    expect(again).toBe(proc);
    await again.run(t);
    again.release();
    expect(loads()).toBe(1);
  }, 60_000);

  it("holds the encoder back while the worker has not stored MAX_CHUNKS_IN_FLIGHT chunks (backpressure)", async () => {
    const p = newPool({ memoryMb: 256 });
    // 20,000 cities 1.1 km apart and 3,000 places among them: a CSV of many ~1 MiB chunks.
    const layer = cities(20_000);
    const places = Array.from({ length: 3000 }, (_, i) => ({ id: `p${i}`, lon: 8 + (i % 100) * 0.01, lat: 47 + Math.floor(i / 100) * 0.05 }));
    const received: TEncodedChunk[] = [];
    const held: (() => void)[] = [];
    const { t, files } = task(layer, places, 5, {
      files: [{ key: "matches", format: "csv" }],
      // Storage that does not finish until the test lets it.
      onChunk: (c) => {
        received.push(c);
        return new Promise<void>((resolve) => held.push(resolve));
      },
    });
    const proc = await p.acquire();
    let done = false;
    const running = proc.run(t).then(() => (done = true));
    const waitUntil = async (cond: () => boolean) => {
      for (let i = 0; i < 600 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
    };
    await waitUntil(() => received.length >= MAX_CHUNKS_IN_FLIGHT);
    await new Promise((r) => setTimeout(r, 500)); // time enough to encode several more chunks
    expect(received).toHaveLength(MAX_CHUNKS_IN_FLIGHT);
    expect(done).toBe(false);
    // Store them as they come: the rest follows and the run completes.
    const release = setInterval(() => held.splice(0).forEach((resolve) => resolve()), 10);
    await running;
    clearInterval(release);
    expect(received.length).toBeGreaterThan(MAX_CHUNKS_IN_FLIGHT);
    const csv = Buffer.concat(received.map((c) => c.bytes));
    expect(csv.byteLength).toBe(files[0]!.sizeBytes);
    expect(csv.toString("utf8").split("\r\n")[0]).toBe("place_id,geonameid,name,country,population,distance_km");
    proc.release();
  });

  it("fails a run over its memory budget with resources_exhausted naming it, and keeps serving", async () => {
    const p = newPool({ memoryMb: 64 });
    // 200 places x 5,000 cities all within 500 km: a million matches, far beyond 64 MB
    const layer = cities(5000);
    const places = Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, lon: 8 + (i % 20) * 0.02, lat: 47 + Math.floor(i / 20) * 0.02 }));
    const heavy = task(layer, places, 500);
    const small = task(layer, [{ id: "a", lon: 8.1, lat: 47.01 }], 2);
    const [t1, t2] = [await p.acquire(), await p.acquire()];
    const [heavyOutcome, smallOutcome] = await Promise.allSettled([t1.run(heavy.t), t2.run(small.t)]);
    expect(heavyOutcome.status).toBe("rejected");
    const err = (heavyOutcome as PromiseRejectedResult).reason;
    expect(err).toBeInstanceOf(ResourceLimitError);
    expect(classifyRunFailure(err)).toMatchObject({ kind: "fail", error: { code: "resources_exhausted", limit: "memory 64 MB" } });
    expect(smallOutcome.status).toBe("fulfilled");
    t1.release();
    t2.release();
    // a fresh process replaces the dead one
    const t3 = await p.acquire();
    const t4 = await p.acquire();
    expect(p.processes).toBe(2);
    const ok = await Promise.all([t3.run(small.t), t4.run(small.t)]);
    expect(ok.every((r) => r.length === 2)).toBe(true);
  }, 60_000);

  it("ends only the run's process when one huge allocation outgrows the budget (a union of millions)", async () => {
    const p = newPool({ memoryMb: 64, size: 1 });
    const copies = (s: string, n: number) => Array.from({ length: n }, () => s);
    const r = validateFlowVersion({
      inputs: [{ name: "places", kind: "table" }],
      steps: [
        { id: "u1", type: "union", sources: copies("places", 50) },
        { id: "u2", type: "union", sources: copies("u1", 50) },
        { id: "u3", type: "union", sources: copies("u2", 10) },
      ],
      results: [{ key: "all", kind: "table", from: "u3" }],
    });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const rows = Array.from({ length: 500 }, (_, i) => ({ id: `p${i}` }));
    const proc = await p.acquire();
    const err = await proc
      .run({
        flow: r.flow,
        inputs: { places: { value: { rows } } },
        params: {},
        layers: [],
        loadLayer: async () => new Uint8Array(),
        files: [{ key: "all", format: "csv" }],
        maxResultBytes: 1e9,
        maxRows: 1e9, // no row limit: this is about memory
        onChunk: () => {},
        onFile: () => {},
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResourceLimitError);
    expect((err as ResourceLimitError).limit).toBe("memory 64 MB");
    proc.release();
    const small = task(cities(10), [{ id: "a", lon: 8, lat: 47 }], 2);
    const next = await p.acquire();
    await expect(next.run(small.t)).resolves.toHaveLength(2);
    next.release();
  }, 60_000);

  it("fails a step over the row limit at once with resources_exhausted naming it, in a process that stays up", async () => {
    const p = newPool({ size: 1 });
    // 200 places x 5,000 cities all within 500 km: a million pairs, twenty times the limit
    const layer = cities(5000);
    const places = Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, lon: 8 + (i % 20) * 0.02, lat: 47 + Math.floor(i / 20) * 0.02 }));
    const heavy = task(layer, places, 500, { maxRows: 50_000 });
    const proc = await p.acquire();
    const err = await proc.run(heavy.t).catch((e: unknown) => e);
    expect(classifyRunFailure(err)).toMatchObject({ kind: "fail", error: { code: "resources_exhausted", limit: "rows 50,000", step: "pairs" } });
    expect(heavy.files).toEqual([]); // failed before any file was written
    // the same process (no restart) serves the next run, with its cached layer
    const small = task(layer, [{ id: "a", lon: 8.1, lat: 47.01 }], 2, { maxRows: 50_000 });
    await expect(proc.run(small.t)).resolves.toHaveLength(2);
    proc.release();
    expect(p.processes).toBe(1);
  }, 60_000);

  it("gives the memory of a large run back to the OS once the process is released", async () => {
    const p = newPool({ size: 1, memoryMb: 512 });
    const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
    const layer = cities(5000);
    // 100 places x 5,000 cities within 500 km: half a million pairs, as rows, and their files
    const places = Array.from({ length: 100 }, (_, i) => ({ id: `p${i}`, lon: 8 + (i % 10) * 0.02, lat: 47 + Math.floor(i / 10) * 0.02 }));
    const proc = await p.acquire();
    await proc.run(task(layer, places, 500, { flow: flowWithMatchRows() }).t);
    const grown = rss(proc.pid!);
    proc.release();
    let now = grown;
    for (let i = 0; i < 50 && now > grown - 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      now = rss(proc.pid!);
    }
    expect(now, `resident ${grown.toFixed(0)} MB after the run, ${now.toFixed(0)} MB after release`).toBeLessThan(grown - 50);
  }, 60_000);

  it("pauses a background encoding while a run works, and it still writes the same file", async () => {
    const p = newPool({ memoryMb: 768 });
    const layer = cities(5000);
    const places = Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, lon: 8 + (i % 10) * 0.02, lat: 47 + Math.floor(i / 10) * 0.02 }));
    const parquet = [{ key: "matches", format: "parquet" as const }];
    let runWorks = false;
    let chunksWhileRunWorks = 0;
    let encodeStart = 0;
    const encodeOnce = async (proc: Awaited<ReturnType<RunPool["acquire"]>>) => {
      const files: TEncodedFile[] = [];
      const chunks = chunkCollector();
      const onChunk: typeof chunks.onChunk = (c) => {
        // within the pause's 5 s limit (run-process.ts PAUSE_LIMIT_MS): a slow machine's run may work longer
        if (runWorks && performance.now() - encodeStart < 4_000) chunksWhileRunWorks++;
        return chunks.onChunk(c);
      };
      encodeStart = performance.now();
      await proc.encode(parquet, { background: true, onChunk, onFile: (f) => files.push(f) });
      return chunks.body(files[0]!);
    };
    const [a, b] = [await p.acquire(), await p.acquire()];
    // alone: nothing to give way to
    await a.run(task(layer, places, 500).t);
    expect(p.busy).toBe(false);
    const alone = await encodeOnce(a);
    // beside a run that works for a while (all 5,000 cities near 300 places: 1.5 million pairs)
    await a.run(task(layer, places, 500).t);
    runWorks = true;
    const heavy = b
      .run(
        task(
          layer,
          Array.from({ length: 300 }, (_, i) => ({ id: `q${i}`, lon: 8.2, lat: 47.2 })),
          500,
          { maxResultBytes: 1e9 },
        ).t,
      )
      .finally(() => (runWorks = false));
    expect(p.busy).toBe(true);
    const beside = await encodeOnce(a);
    await heavy;
    expect(p.busy).toBe(false);
    expect(beside.equals(alone)).toBe(true);
    // Paused at its first slice: nothing written while the run worked (~5 MB, several ~1 MiB
    // chunks, came after it), and done once the run was.
    expect(alone.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(chunksWhileRunWorks).toBeLessThanOrEqual(1);
    a.release();
    b.release();
  }, 60_000);

  it("stops a run over its time limit with resources_exhausted naming it", async () => {
    const p = newPool({ timeLimitMs: 300 });
    const layer = cities(5000);
    const places = Array.from({ length: 2000 }, (_, i) => ({ id: `p${i}`, lon: 8, lat: 47 }));
    const { t } = task(layer, places, 500);
    const proc = await p.acquire();
    const err = await proc.run(t).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResourceLimitError);
    expect((err as ResourceLimitError).limit).toBe("run time 0.3 s");
    proc.release();
  }, 60_000);

  it("cancels a run through its signal (AbortError), and the process stays usable", async () => {
    const p = newPool({ size: 1 });
    const layer = cities(5000);
    const places = Array.from({ length: 2000 }, () => ({ id: "p", lon: 8, lat: 47 }));
    const ac = new AbortController();
    const { t } = task(layer, places, 500, { signal: ac.signal, onProgress: () => ac.abort() });
    const proc = await p.acquire();
    const err = await proc.run(t).catch((e: unknown) => e);
    expect((err as Error).name).toBe("AbortError");
    const small = task(layer, [{ id: "a", lon: 8.1, lat: 47.01 }], 2);
    await expect(proc.run(small.t)).resolves.toHaveLength(2);
    proc.release();
    expect(p.processes).toBe(1);
  }, 60_000);
});
