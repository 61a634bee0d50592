/**
 * Every way a run becomes final (finish, cancel, worker loss, expiry) goes through
 * `finalizeRun` (lib/runs/run-state.ts) and leaves the same postconditions: the final state,
 * `finished_at`, processing time = finished_at - started_at, that time metered on the
 * workspace, the caller data removed, and a request waiting on the run woken at once. A run
 * that completes has each result file whole in the blob store, as its row says; one that does
 * not keeps no files (the worker deletes what the run wrote under `runs/<id>/`).
 */
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { blobStore } from "@/lib/blobs";
import { failLostRun } from "@/lib/runs/fail-lost-run";
import { purgeExpired } from "@/lib/runs/purge";
import { apiPath, http, sql, waitFor } from "./helpers";
import { copyDemoLayer, createFlowApi, createWorkspace, workspaceUsage, ZURICH_AREA as AREA } from "./contract-helpers";

/** Slow (every city x every city within 2,000 km) unless `quick`, and always holding caller data (an area). */
const flowWithCallerData = (quick: boolean) => ({
  description: "Holds caller data",
  inputs: [
    { name: "cities", kind: "layer" },
    { name: "zone", kind: "area" },
  ],
  parameters: [],
  steps: quick
    ? [{ id: "inside", type: "spatial_filter", source: "cities", by: "zone", predicate: "intersects" }]
    : [{ id: "around", type: "within_distance", source: "cities", target: "cities", max_km: 2000, aggregations: [{ op: "count", as: "n" }] }],
  results: [{ key: "out", kind: "layer", from: quick ? "inside" : "around" }],
});

const BODY = { inputs: { cities: { layer_id: "world-cities" }, zone: { area: AREA } } };

interface TRow {
  state: string;
  startedAt: Date | null;
  finishedAt: Date | null;
  processingMs: number | null;
  request: unknown;
  error: { code: string } | null;
}

async function runRow(id: string): Promise<TRow> {
  const { rows } = await sql().query(`SELECT state, "startedAt", "finishedAt", "processingMs", request, error FROM run WHERE id = $1`, [id]);
  return rows[0];
}

/** A run started on a fresh workspace, with a request waiting on it (POST wait_seconds 60). */
async function startWaited(quick: boolean) {
  const { workspaceId } = await createWorkspace(10_000);
  await copyDemoLayer(workspaceId, "world-cities"); // BODY's layer_id resolves in the API's workspace
  const api = await createFlowApi({ definition: flowWithCallerData(quick), workspaceId });
  const before = await workspaceUsage(workspaceId);
  const path = `${apiPath(api)}/runs`;
  const waiting = http("POST", path, { body: { ...BODY, wait_seconds: 60 } }).then((r) => ({ ...r, at: Date.now() }));
  let runId = "";
  await waitFor(
    "the run to exist",
    async () => {
      const { rows } = await sql().query(`SELECT r.id FROM run r JOIN flow_api a ON a.id = r."flowApiId" WHERE a.slug = $1`, [api]);
      runId = rows[0]?.id ?? "";
      return runId !== "";
    },
    30_000,
  );
  return { workspaceId, api, path, before, waiting, runId };
}

async function expectFinalized(ctx: Awaited<ReturnType<typeof startWaited>>, state: string, finalizedAt: number, opts: { started: boolean }) {
  const answer = await ctx.waiting;
  // Woken by the notification, not by the 60 s wait running out.
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.state).toBe(state);
  expect(answer.at - finalizedAt).toBeLessThan(5_000);

  const row = await runRow(ctx.runId);
  expect(row.state).toBe(state);
  expect(row.finishedAt).not.toBeNull();
  if (opts.started) {
    expect(row.startedAt).not.toBeNull();
    const elapsed = row.finishedAt!.getTime() - row.startedAt!.getTime();
    expect(Math.abs(row.processingMs! - elapsed)).toBeLessThanOrEqual(1);
    expect(row.processingMs!).toBeGreaterThan(0);
  } else {
    expect(row.processingMs).toBe(0);
  }
  const after = await workspaceUsage(ctx.workspaceId);
  expect(after.processingMs - ctx.before.processingMs).toBe(row.processingMs);
  expect(after.etlRuns - ctx.before.etlRuns).toBe(1);
  expect(row.request).toEqual({ inputs: { cities: { layer_id: "world-cities" }, zone: { removed: "area" } }, parameters: {} });
  return row;
}

async function blobBytes(key: string): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of blobStore().stream(key)) parts.push(c);
  return Buffer.concat(parts);
}

async function blobKeys(runId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const b of blobStore().list(`runs/${runId}/`)) keys.push(b.key);
  return keys.sort();
}

/** Per file row of the run: its size and checksum against the blob's; `orphans`: blobs of the run no row refers to. */
async function storedFiles(runId: string) {
  const { rows } = await sql().query(`SELECT key, format, "sizeBytes"::int AS size, sha256, "blobKey" FROM result_file WHERE "runId" = $1`, [runId]);
  const files = await Promise.all(
    (rows as { key: string; format: string; size: number; sha256: string; blobKey: string }[]).map(async (f) => {
      const bytes = await blobBytes(f.blobKey);
      return { ...f, stored: bytes.byteLength, storedSha256: createHash("sha256").update(bytes).digest("hex") };
    }),
  );
  const copies = (await sql().query(`SELECT "spillKey" FROM run_result WHERE "runId" = $1`, [runId])).rows.map((r: { spillKey: string }) => r.spillKey);
  const referenced = new Set([...files.map((f) => f.blobKey), ...copies]);
  return { files, orphans: (await blobKeys(runId)).filter((k) => !referenced.has(k)).length };
}

/** A file as a run that is still working would have written it. */
async function storeFileWhileRunning(runId: string): Promise<void> {
  await blobStore().put(
    `runs/${runId}/out/geojson`,
    (async function* () {
      yield new TextEncoder().encode("{}");
    })(),
  );
}

async function expectNoFiles(runId: string): Promise<void> {
  await waitFor("the run's files to be deleted", async () => (await blobKeys(runId)).length === 0, 30_000);
}

const runningNow = (id: string) => async () => (await runRow(id)).state === "running";

describe("every final path of a run", () => {
  it("finish (completed)", async () => {
    const ctx = await startWaited(true);
    const answer = await ctx.waiting;
    const row = await expectFinalized({ ...ctx, waiting: Promise.resolve(answer) }, "completed", answer.at, { started: true });
    expect(row.error).toBeNull();
    const stored = await storedFiles(ctx.runId);
    expect(stored.files.find((f) => f.key === "out" && f.format === "geojson")).toBeDefined();
    for (const f of stored.files) {
      expect(f.stored, `${f.key}.${f.format}`).toBe(f.size);
      expect(f.storedSha256).toBe(f.sha256);
    }
    expect(stored.orphans).toBe(0);
  });

  it("cancel", async () => {
    const ctx = await startWaited(false);
    await waitFor("the run to start", runningNow(ctx.runId), 30_000);
    await storeFileWhileRunning(ctx.runId);
    const cancel = await http("POST", `${ctx.path}/${ctx.runId}/cancel`);
    expect(cancel.status, cancel.text).toBe(200);
    await expectFinalized(ctx, "cancelled", Date.now(), { started: true });
    await expectNoFiles(ctx.runId);
  });

  it("worker loss (dead letter)", async () => {
    const ctx = await startWaited(false);
    await waitFor("the run to start", runningNow(ctx.runId), 30_000);
    await storeFileWhileRunning(ctx.runId);
    await failLostRun({ runId: ctx.runId });
    const row = await expectFinalized(ctx, "failed", Date.now(), { started: true });
    expect(row.error?.code).toBe("worker_lost");
    await expectNoFiles(ctx.runId);
  });

  it("expiry (maintenance)", async () => {
    const ctx = await startWaited(false);
    await waitFor("the run to start", runningNow(ctx.runId), 30_000);
    await storeFileWhileRunning(ctx.runId);
    await sql().query(`UPDATE run SET "createdAt" = "createdAt" - interval '2 hours' WHERE id = $1`, [ctx.runId]);
    const counts = await purgeExpired();
    expect(counts.expiredRuns).toBeGreaterThanOrEqual(1);
    const row = await expectFinalized(ctx, "failed", Date.now(), { started: true });
    expect(row.error?.code).toBe("run_expired");
    await expectNoFiles(ctx.runId);
  });

  it("a final run is never finalized again", async () => {
    const ctx = await startWaited(true);
    await ctx.waiting;
    const first = await runRow(ctx.runId);
    await failLostRun({ runId: ctx.runId });
    expect(await runRow(ctx.runId)).toEqual(first);
  });
});
