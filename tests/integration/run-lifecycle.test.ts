/**
 * Every way a run becomes final (finish, cancel, worker loss, expiry) goes through
 * `finalizeRun` (lib/runs/run-state.ts) and leaves the same postconditions: the final state,
 * `finished_at`, processing time = finished_at - started_at, that time metered on the
 * workspace, the caller data removed, and a request waiting on the run woken at once. A run
 * that completes has each result file whole in its stored chunks; one that does not keeps no
 * chunks (result files stream to storage while the run works, lib/runs/result-file-store.ts).
 */
import { describe, expect, it } from "vitest";
import { failLostRun } from "@/lib/runs/fail-lost-run";
import { purgeExpiredCounted } from "@/lib/runs/purge";
import { apiPath, http, sql, waitFor } from "./helpers";
import { createFlowApi, createWorkspace, workspaceUsage, ZURICH_AREA as AREA } from "./contract-helpers";

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

/** Per stored file of the run: its size and the bytes its chunks hold; `orphans`: chunks without a file. */
async function storedFiles(runId: string) {
  const files = await sql().query(
    `SELECT f.key, f.format, f."sizeBytes" AS size, (SELECT coalesce(sum(length(c.bytes)), 0)::int FROM result_file_chunk c
       WHERE c."runId" = f."runId" AND c.key = f.key AND c.format = f.format) AS stored
     FROM result_file f WHERE f."runId" = $1`,
    [runId],
  );
  const orphans = await sql().query(
    `SELECT count(*)::int AS n FROM result_file_chunk c WHERE c."runId" = $1
       AND NOT EXISTS (SELECT 1 FROM result_file f WHERE f."runId" = c."runId" AND f.key = c.key AND f.format = c.format)`,
    [runId],
  );
  return { files: files.rows as { key: string; format: string; size: number; stored: number }[], orphans: orphans.rows[0].n as number };
}

/** A chunk as a run that is still working would have stored it. */
async function storeChunkWhileRunning(runId: string): Promise<void> {
  await sql().query(`INSERT INTO result_file_chunk ("runId", key, format, seq, bytes) VALUES ($1, 'out', 'geojson', 0, '\\x7b7d')`, [runId]);
}

async function expectNoChunks(runId: string): Promise<void> {
  const { rows } = await sql().query(`SELECT count(*)::int AS n FROM result_file_chunk WHERE "runId" = $1`, [runId]);
  expect(rows[0].n).toBe(0);
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
    for (const f of stored.files) expect(f.stored, `${f.key}.${f.format}`).toBe(f.size);
    expect(stored.orphans).toBe(0);
  });

  it("cancel", async () => {
    const ctx = await startWaited(false);
    await waitFor("the run to start", runningNow(ctx.runId), 30_000);
    await storeChunkWhileRunning(ctx.runId);
    const cancel = await http("POST", `${ctx.path}/${ctx.runId}/cancel`);
    expect(cancel.status, cancel.text).toBe(200);
    await expectFinalized(ctx, "cancelled", Date.now(), { started: true });
    await expectNoChunks(ctx.runId);
  });

  it("worker loss (dead letter)", async () => {
    const ctx = await startWaited(false);
    await waitFor("the run to start", runningNow(ctx.runId), 30_000);
    await storeChunkWhileRunning(ctx.runId);
    await failLostRun({ runId: ctx.runId });
    const row = await expectFinalized(ctx, "failed", Date.now(), { started: true });
    expect(row.error?.code).toBe("worker_lost");
    await expectNoChunks(ctx.runId);
  });

  it("expiry (maintenance)", async () => {
    const ctx = await startWaited(false);
    await waitFor("the run to start", runningNow(ctx.runId), 30_000);
    await storeChunkWhileRunning(ctx.runId);
    await sql().query(`UPDATE run SET "createdAt" = "createdAt" - interval '2 hours' WHERE id = $1`, [ctx.runId]);
    const counts = await purgeExpiredCounted();
    expect(counts.expiredRuns).toBeGreaterThanOrEqual(1);
    const row = await expectFinalized(ctx, "failed", Date.now(), { started: true });
    expect(row.error?.code).toBe("run_expired");
    await expectNoChunks(ctx.runId);
  });

  it("a final run is never finalized again", async () => {
    const ctx = await startWaited(true);
    await ctx.waiting;
    const first = await runRow(ctx.runId);
    await failLostRun({ runId: ctx.runId });
    expect(await runRow(ctx.runId)).toEqual(first);
  });
});
