// The run pool with real child processes and a real (filesystem) blob store: a run reads its
// layer from a layer file and writes its requested files and lossless copies into the store;
// a format nobody asked for is made later from the copy; a run over its memory budget, time limit
// or row limit fails with ResourceLimitError naming the limit while the pool keeps serving; a
// process killed from outside fails its work as lost (retried); cancellation.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parquetReadObjects } from "hyparquet";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { NEARBY_CITIES } from "@/lib/demo/flows";
import { validateFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import { applyParameterDefaults } from "@/lib/flows/run-request";
import { ResourceLimitError } from "@/lib/errors";
import { RunProcessLostError } from "@/lib/errors/run-failure";
import { isAbortError } from "@/lib/engine/errors";
import type { TFeature } from "@/lib/engine/types";
import { classifyRunFailure } from "@/lib/runs/classify-failure";
import type { TLayerRef, TRunTask } from "@/lib/runs/run-task";
import { RunPool, type TPoolLimits } from "@/worker/runtime/run-pool";

// Every process of this test (and the run processes it forks) uses a store of its own.
const BLOBS = fs.mkdtempSync(path.join(os.tmpdir(), "run-pool-test-"));
process.env.BLOB_DIR = BLOBS;
process.env.BLOB_STORE = "fs";
// The environment schema requires a database URL; nothing in these processes connects to it.
process.env.DATABASE_URL ??= "postgres://unused@127.0.0.1:9/unused";

const { blobStore } = await import("@/lib/blobs");
const { writeLayerItems } = await import("@/lib/layers/write-layer");

function flow(): TFlowVersion {
  const r = validateFlowVersion(NEARBY_CITIES);
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

async function readBlob(key: string): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of blobStore().stream(key)) parts.push(c);
  return Buffer.concat(parts);
}

const layers = new Map<number, { layer: TFeature[]; ref: TLayerRef }>();
/** A layer file of `n` grid cities in the test's store (written once per size). */
async function cityLayer(n: number): Promise<{ layer: TFeature[]; ref: TLayerRef }> {
  const hit = layers.get(n);
  if (hit) return hit;
  const layer = cities(n);
  const f = await writeLayerItems("ws", `cities-${n}`, { kind: "features", items: layer });
  const made = {
    layer,
    ref: { id: `cities-${n}`, fileKey: f.fileKey, kind: "features" as const, itemCount: f.itemCount, bbox: f.bbox, columns: f.columns.map((c) => c.name) },
  };
  layers.set(n, made);
  return made;
}

let runs = 0;
function task(ref: TLayerRef, places: { id: string; lon: number; lat: number }[], radius: number, extra: Partial<TRunTask> = {}): TRunTask {
  const f = flow();
  return {
    runId: `00000000-0000-4000-8000-${String(++runs).padStart(12, "0")}`,
    flow: f,
    inputs: { places: { value: { rows: places } }, cities: { layer: ref } },
    params: applyParameterDefaults(f, { radius_km: radius }),
    files: [
      { key: "places", format: "geojson" },
      { key: "matches", format: "csv" },
    ],
    maxResultBytes: 50 * 1024 * 1024,
    maxRows: 1e9,
    ...extra,
  };
}

let pool: RunPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});
beforeAll(async () => {
  await cityLayer(500);
});
afterAll(() => fs.rmSync(BLOBS, { recursive: true, force: true }));

function newPool(limits: Partial<TPoolLimits> = {}): RunPool {
  pool = new RunPool({ size: 2, memoryMb: 128, timeLimitMs: 60_000, ...limits });
  return pool;
}

describe("RunPool", () => {
  it("runs a flow on a layer file and writes the requested files and the copies into the blob store; another format comes from the copy", async () => {
    const p = newPool();
    const { layer, ref } = await cityLayer(500);
    const places = [
      { id: "a", lon: 8.1, lat: 47.01 },
      { id: "b", lon: 9.5, lat: 48 },
    ];
    const expected = places.map((pl) => layer.filter((c) => haversineKm([pl.lon, pl.lat], (c.geometry as { coordinates: number[] }).coordinates) <= 5).length);
    const t = task(ref, places, 5);
    const answer = await p.with((proc) => proc.run(t));
    expect(answer.results.find((r) => r.key === "matches")?.rowCount).toBe(expected[0]! + expected[1]!);
    expect(answer.results.find((r) => r.key === "places")?.featureCount).toBe(2);
    expect(answer.files.map((f) => `${f.key}.${f.format}`)).toEqual(["places.geojson", "matches.csv"]);
    for (const f of answer.files) {
      const body = await readBlob(f.blobKey);
      expect(body.byteLength).toBe(f.sizeBytes);
      expect(createHash("sha256").update(body).digest("hex")).toBe(f.sha256);
    }
    const csv = (await readBlob(answer.files[1]!.blobKey)).toString("utf8").trim().split("\r\n");
    expect(csv.length - 1).toBe(expected[0]! + expected[1]!);

    // Later, in any process: Parquet of the matches from the lossless copy, the same rows as the CSV.
    const copy = answer.results.find((r) => r.key === "matches")!.spillKey;
    const parquet = await p.with((proc) => proc.format({ runId: t.runId, key: "matches", spillKey: copy, format: "parquet", maxResultBytes: 1e9 }));
    const bytes = await readBlob(parquet!.blobKey);
    const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
    expect(rows).toHaveLength(expected[0]! + expected[1]!);
    const header = csv[0]!.split(",");
    expect(Object.keys(rows[0]!)).toEqual(header);
    expect(rows.map((r) => String(r.geonameid)).sort()).toEqual(
      csv
        .slice(1)
        .map((l) => l.split(",")[header.indexOf("geonameid")]!)
        .sort(),
    );
  }, 60_000);

  it("fails a run over its memory budget with resources_exhausted while another run completes, and replaces the process", async () => {
    const p = newPool({ memoryMb: 64 });
    const big = await cityLayer(5000);
    // One huge allocation inside a builtin: unions of 500 rows, 50 x 50 x 10 times over.
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
    const heavy: TRunTask = {
      runId: "00000000-0000-4000-8000-ffffffffffff",
      flow: r.flow,
      inputs: { places: { value: { rows: Array.from({ length: 500 }, (_, i) => ({ id: `p${i}` })) } } },
      params: {},
      files: [{ key: "all", format: "csv" }],
      maxResultBytes: 1e9,
      maxRows: 1e9, // no row limit: this is about memory
    };
    const small = task(big.ref, [{ id: "a", lon: 8.1, lat: 47.01 }], 2);
    const [heavyOutcome, smallOutcome] = await Promise.allSettled([p.with((t) => t.run(heavy)), p.with((t) => t.run(small))]);
    expect(heavyOutcome.status).toBe("rejected");
    const err = (heavyOutcome as PromiseRejectedResult).reason;
    expect(err).toBeInstanceOf(ResourceLimitError);
    expect(classifyRunFailure(err)).toMatchObject({ kind: "fail", error: { code: "resources_exhausted", limit: "memory 64 MB" } });
    expect(smallOutcome.status).toBe("fulfilled");
    expect(p.processes).toBe(2);
    const ok = await Promise.all([
      p.with((t) => t.run(task(big.ref, [{ id: "a", lon: 8, lat: 47 }], 2))),
      p.with((t) => t.run(task(big.ref, [{ id: "b", lon: 8, lat: 47 }], 2))),
    ]);
    expect(ok.every((x) => x.results.length === 2)).toBe(true);
  }, 120_000);

  it("fails a step over the row limit at once with resources_exhausted naming it, in a process that stays up", async () => {
    const p = newPool({ size: 1 });
    const big = await cityLayer(5000);
    const places = Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, lon: 8 + (i % 20) * 0.02, lat: 47 + Math.floor(i / 20) * 0.02 }));
    const proc = await p.acquire();
    const pid = proc.pid;
    const err = await proc.run(task(big.ref, places, 500, { maxRows: 50_000 })).catch((e: unknown) => e);
    expect(classifyRunFailure(err)).toMatchObject({ kind: "fail", error: { code: "resources_exhausted", limit: "rows 50,000", step: "pairs" } });
    await expect(proc.run(task(big.ref, [{ id: "a", lon: 8.1, lat: 47.01 }], 2, { maxRows: 50_000 }))).resolves.toMatchObject({ results: expect.any(Array) });
    expect(proc.pid).toBe(pid);
    proc.release();
  }, 60_000);

  it("fails a run whose files pass the result budget with resources_exhausted, with none of its files still being written", async () => {
    const p = newPool({ size: 1 });
    const big = await cityLayer(5000);
    const places = Array.from({ length: 50 }, (_, i) => ({ id: `p${i}`, lon: 8 + (i % 10) * 0.05, lat: 47 + Math.floor(i / 10) * 0.05 }));
    // the files and copies of a run are written at once: the one that passes the budget stops the others
    const err = await p.with((t) => t.run(task(big.ref, places, 20, { maxResultBytes: 1024 * 1024 }))).catch((e: unknown) => e);
    expect(classifyRunFailure(err)).toMatchObject({ kind: "fail", error: { code: "resources_exhausted", limit: "result size 1 MB" } });
    // an upload in progress lives in the store's tmp folder until it is complete or removed
    expect(fs.readdirSync(path.join(BLOBS, "tmp"))).toEqual([]);
  }, 60_000);

  it("stops a run at its time limit, and fails the work of a process killed from outside as lost (retried)", async () => {
    const p = newPool({ size: 1, timeLimitMs: 1_000, memoryMb: 256 });
    const big = await cityLayer(5000);
    const places = Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, lon: 8 + (i % 20) * 0.02, lat: 47 + Math.floor(i / 20) * 0.02 }));
    const slow = await p.with((t) => t.run(task(big.ref, places, 500))).catch((e: unknown) => e);
    expect(classifyRunFailure(slow)).toMatchObject({ kind: "fail", error: { code: "resources_exhausted", limit: "run time 1 s" } });

    const q = newPool({ size: 1, memoryMb: 256 });
    const proc = await q.acquire();
    let started = () => {};
    const atFirstStep = new Promise<void>((r) => (started = r));
    const running = proc.run(task(big.ref, places, 500, { onProgress: () => started() })).catch((e: unknown) => e);
    await atFirstStep; // the process is inside the run
    process.kill(proc.pid!, "SIGKILL"); // as the OOM killer or an operator would
    const lost = await running;
    expect(lost).toBeInstanceOf(RunProcessLostError);
    expect(classifyRunFailure(lost)).toEqual({ kind: "retry" });
    proc.release();
    await expect(q.with((t) => t.run(task(big.ref, [{ id: "a", lon: 8, lat: 47 }], 2)))).resolves.toMatchObject({ results: expect.any(Array) });
  }, 60_000);

  it("cancels a run on the signal with an abort", async () => {
    const p = newPool({ size: 1, memoryMb: 256 });
    const big = await cityLayer(5000);
    const places = Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, lon: 8 + (i % 20) * 0.02, lat: 47 + Math.floor(i / 20) * 0.02 }));
    const abort = new AbortController();
    // Aborted once the process reports its first step done, so the abort reaches a run under way.
    const running = p.with((t) => t.run(task(big.ref, places, 500, { signal: abort.signal, onProgress: () => abort.abort() }))).catch((e: unknown) => e);
    expect(isAbortError(await running)).toBe(true);
  }, 60_000);
});
