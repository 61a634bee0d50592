/**
 * Scaling out (README "Scaling out"): two web processes and two workers, each worker with a
 * temporary folder of its own, against one database and one S3-compatible server (s3rver), and
 * nothing else shared. Runs sent through either web process are worked on by both workers at
 * once (each takes one run at a time, and two runs overlap), and every result downloads, byte
 * for byte the same, from either web process.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server, type TS3TestServer } from "@/lib/blobs/s3-test-server";
import { generateApiKey } from "@/lib/keys/api-key";
import { freePort, startApp, waitHealthy, type TAppProcesses } from "../../scripts/app-processes";
import { suffix } from "./contract-helpers";

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const KEY = generateApiKey();
let s3: TS3TestServer;
let apps: { app: TAppProcesses; url: string; tmp: string }[] = [];
let databaseUrl = "";

beforeAll(async () => {
  s3 = await startS3Server({ bucket: "flow-api" });
  // A database of its own on the test server: the suite's worker must not take these jobs.
  const name = `scale_out_${suffix().replace(/-/g, "_")}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(process.env.DATABASE_URL!);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    BLOB_STORE: "s3",
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    WORKER_CONCURRENCY: "1",
  };
  // Not spawnSync: the S3 server runs in this process and must go on answering meanwhile.
  const script = path.join(ROOT, "tests/integration/fixtures/seed-database.ts");
  await execFileAsync(process.execPath, ["--conditions=react-server", "--import", "tsx", script, KEY, generateApiKey()], {
    cwd: ROOT,
    env,
    timeout: 180_000,
  }).catch((err: { message: string; stderr?: string }) => {
    throw new Error(`seeding the scale-out database failed: ${err.message} ${err.stderr ?? ""}`);
  });
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `scale-out-worker-${i}-`));
    const app = startApp({ port, host: "127.0.0.1", env: { ...env, TMP_DIR: tmp }, quiet: process.env.TEST_VERBOSE !== "1" });
    apps.push({ app, url: `http://127.0.0.1:${port}`, tmp });
  }
  await Promise.all(apps.map((a) => waitHealthy(a.url, 180_000)));
}, 400_000);

afterAll(async () => {
  await Promise.all(apps.map((a) => a.app.stop()));
  for (const a of apps) fs.rmSync(a.tmp, { recursive: true, force: true });
  apps = [];
  await s3?.stop();
  if (databaseUrl) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
    await admin.end();
  }
});

/** 300 places around Switzerland: nearby-cities at 60 km takes a second or two, long enough for two runs sent at once to overlap. */
const BODY = {
  inputs: {
    places: { rows: Array.from({ length: 300 }, (_, i) => ({ id: `p${i}`, lon: 6 + (i % 20) * 0.2, lat: 45 + Math.floor(i / 20) * 0.2 })) },
    cities: { layer_id: "world-cities" },
  },
  parameters: { radius_km: 60 },
  wait_seconds: 60,
};

type TRunDoc = { run_id: string; state: string; started_at: string; finished_at: string; results: { key: string; href: string; size_bytes: number }[] };

/**
 * `fetch` that sends a request once more when the connection drops before an answer (a network
 * error, never an HTTP status): what a client of several web processes does. Once, in a full
 * `npm test`, a reused keep-alive connection to one of the fresh web processes was closed
 * under the client ("other side closed"); GETs are safe to repeat and the POST carries an
 * Idempotency-Key, so a repeat never starts a second run.
 */
async function fetchOnceMore(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return fetch(url, init);
  }
}

async function run(base: string): Promise<TRunDoc> {
  const res = await fetchOnceMore(`${base}/public/api/demo/production/nearby-cities/runs`, {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": "application/json", "idempotency-key": `scale-out-${base}` },
    body: JSON.stringify(BODY),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as TRunDoc;
}

describe("two web processes and two workers sharing one database and one bucket", () => {
  it("work on runs of either web process at once and serve every result from either", async () => {
    const [a, b] = await Promise.all([run(apps[0]!.url), run(apps[1]!.url)]);
    expect([a.state, b.state], JSON.stringify([a, b].map((d) => (d as { error?: unknown }).error))).toEqual(["completed", "completed"]);
    // Each worker takes one run at a time: overlapping runs were worked on by two workers.
    const overlap = Math.min(Date.parse(a.finished_at), Date.parse(b.finished_at)) - Math.max(Date.parse(a.started_at), Date.parse(b.started_at));
    expect(overlap).toBeGreaterThan(0);
    for (const doc of [a, b]) {
      for (const r of doc.results) {
        const bodies = await Promise.all(
          apps.map(async (w) => {
            const res = await fetchOnceMore(`${w.url}${r.href}`, { headers: { "x-api-key": KEY } });
            expect(res.status).toBe(200);
            return Buffer.from(await res.arrayBuffer());
          }),
        );
        expect(bodies[0]!.byteLength).toBe(r.size_bytes);
        expect(bodies[1]!.equals(bodies[0]!)).toBe(true);
      }
      // The other format, made from the copy by whichever worker takes the job, from either web process.
      const matches = doc.results.find((r) => r.key === "matches")!;
      const parquet = await Promise.all(
        apps.map(async (w) =>
          Buffer.from(await (await fetchOnceMore(`${w.url}${matches.href}?format=parquet`, { headers: { "x-api-key": KEY } })).arrayBuffer()),
        ),
      );
      expect(parquet[0]!.subarray(0, 4).toString()).toBe("PAR1");
      expect(parquet[1]!.equals(parquet[0]!)).toBe(true);
    }
  }, 300_000);
});
