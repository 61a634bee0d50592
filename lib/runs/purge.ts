/**
 * Periodic maintenance (job "maintenance-purge", every 15 minutes):
 * - idempotency records past `expiresAt` (kept IDEMPOTENCY_RETENTION_HOURS, >= 24 h);
 * - result files of runs final for longer than RESULT_RETENTION_HOURS (the run stays,
 *   its results answer 404 afterwards): their rows, and their blobs (`runs/<run id>/`);
 * - blobs nothing refers to any more (`sweepBlobs`): files of runs that did not complete (a
 *   worker that died before it could delete them), the imported href inputs of final runs,
 *   layer files a replaced layer no longer points at, staged uploads of imports that ended; each only when older than
 *   `SWEEP_GRACE_MS`, so a file being written is never taken; a replaced layer's old file also
 *   only that long after the replacement (the layer's `updatedAt`), so a run in flight still
 *   reads the file it started with however old that file is;
 * - caller data of final runs (defence in depth; finishing already removes it);
 * - runs stuck in `queued`/`running` longer than the job's expiry and retries allow
 *   (a worker died and pg-boss gave up) become `failed` (`run_expired`) through
 *   `finalizeRun`, like every other final state: processing time metered, caller data
 *   removed, waiting requests woken;
 * - rate-limit windows that have ended (lib/rate-limit);
 * - expired records of the OAuth authorization server (lib/oauth/adapter.ts: codes, tokens,
 *   sessions, interactions and grants past their `expiresAt`).
 */
import "server-only";
import { blobStore } from "@/lib/blobs";
import { db } from "@/lib/db";
import { isUuid } from "@/lib/database/uuid";
import { env } from "@/lib/env";
import { purgeRateLimitWindows } from "@/lib/rate-limit/rate-limit";
import type { TRunError } from "@/lib/runs/run-document";
import { finalizeRun, WITHOUT_CALLER_DATA_SQL } from "@/lib/runs/run-state";

/** Longest a run can legitimately stay unfinished: 2 attempts x 30 min + margin. */
const STUCK_AFTER_MS = 65 * 60_000;

const RUN_EXPIRED_ERROR: TRunError = { code: "run_expired", message: "The run did not finish in time and was stopped." };

/** Age below which an unreferenced blob is left alone (a run may still read it, or it is being written). */
const SWEEP_GRACE_MS = 60 * 60_000;

/** Deletes blobs nothing refers to (see the module doc); returns how many. */
export async function sweepBlobs(now = Date.now()): Promise<number> {
  const store = blobStore();
  let deleted = 0;
  const old = (d: Date) => now - d.getTime() > SWEEP_GRACE_MS;
  // Runs: keep the files of completed runs that still have their results listed, and the
  // imported href inputs of runs not final yet (`runs/<id>/input-files/`, lib/runs/href-input.ts).
  const runIds = new Set<string>();
  const withInputs = new Set<string>();
  for await (const b of store.list("runs/")) {
    const [, runId, dir] = b.key.split("/");
    if (runId && old(b.lastModified)) {
      runIds.add(runId);
      if (dir === "input-files") withInputs.add(runId);
    }
  }
  for (const runId of runIds) {
    const run = isUuid(runId) ? await db.run.findUnique({ where: { id: runId }, select: { state: true, _count: { select: { files: true } } } }) : null;
    if (!run || run.state === "failed" || run.state === "cancelled" || (run.state === "completed" && run._count.files === 0)) {
      deleted += await store.deletePrefix(`runs/${runId}/`);
    } else if (run.state === "completed" && withInputs.has(runId)) {
      deleted += await store.deletePrefix(`runs/${runId}/input-files/`);
    }
  }
  // Layers: keep each layer's current file, and its earlier ones for a while after it was replaced
  // (keys are `layers/<workspace>/<layer id>/<file>`, lib/layers/layer-file-key.ts). Staged uploads:
  // keep those of imports still queued or running.
  const layers = await db.layer.findMany({ select: { workspaceId: true, id: true, fileKey: true, updatedAt: true } });
  const changedAt = new Map(layers.map((l) => [`layers/${l.workspaceId}/${l.id}/`, l.updatedAt]));
  const replacedLately = (key: string) => {
    const at = changedAt.get(key.slice(0, key.lastIndexOf("/") + 1));
    return at !== undefined && !old(at);
  };
  const keep = {
    "layers/": new Set(layers.map((l) => l.fileKey)),
    "imports/": new Set(
      (await db.layerImport.findMany({ where: { state: { in: ["queued", "running"] } }, select: { uploadKey: true } })).map((i) => i.uploadKey),
    ),
  };
  for (const [prefix, kept] of Object.entries(keep)) {
    for await (const b of store.list(prefix)) {
      if (!kept.has(b.key) && old(b.lastModified) && !(prefix === "layers/" && replacedLately(b.key))) {
        await store.delete(b.key);
        deleted++;
      }
    }
  }
  return deleted;
}

/** One maintenance pass (the job's handler); returns how many rows each rule touched. */
export async function purgeExpired() {
  const now = Date.now();
  const idem = await db.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: new Date(now) } } });
  const cutoff = new Date(now - env().RESULT_RETENTION_HOURS * 3600_000);
  const expired = await db.run.findMany({
    where: { finishedAt: { lte: cutoff }, OR: [{ files: { some: {} } }, { results: { some: { spillKey: { not: null } } } }] },
    select: { id: true },
  });
  let resultFiles = 0;
  for (const { id } of expired) {
    // Rows first: a file without its row is never served; its blobs go right after (or at the next sweep).
    const removed = await db.resultFile.deleteMany({ where: { runId: id } });
    await db.runResult.updateMany({ where: { runId: id }, data: { spillKey: null } });
    await db.resultFormatFailure.deleteMany({ where: { runId: id } }); // what could not be made goes with what was
    resultFiles += removed.count;
    await blobStore()
      .deletePrefix(`runs/${id}/`)
      .catch(() => {});
  }
  // Caller data left in a final run (finalizeRun normally removes it).
  const callerData = await db.$executeRawUnsafe(
    `UPDATE "run" SET "request" = ${WITHOUT_CALLER_DATA_SQL}
     WHERE "state" IN ('completed', 'failed', 'cancelled') AND "request" IS NOT NULL
       AND EXISTS (SELECT 1 FROM jsonb_each(coalesce("request"->'inputs', '{}'::jsonb)) AS i(name, value)
                   WHERE jsonb_typeof(i.value) = 'object' AND (i.value ? 'geojson' OR i.value ? 'rows' OR i.value ? 'area' OR i.value ? 'href'))`,
  );
  const stuck = await db.run.findMany({
    where: { state: { in: ["queued", "running"] }, createdAt: { lte: new Date(now - STUCK_AFTER_MS) } },
    select: { id: true },
  });
  let expiredRuns = 0;
  for (const { id } of stuck) {
    const done = await db.$transaction((tx) => finalizeRun(tx, { runId: id, to: "failed", error: RUN_EXPIRED_ERROR }));
    if (done) expiredRuns++;
  }
  const windows = await purgeRateLimitWindows();
  const oauth = await db.oauthRecord.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  const blobsDeleted = await sweepBlobs(now);
  return {
    idempotencyRecords: idem.count,
    resultFiles,
    callerData,
    expiredRuns,
    rateLimitWindows: windows,
    oauthRecords: oauth.count,
    blobsDeleted,
  };
}
