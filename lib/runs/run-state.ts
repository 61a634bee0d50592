/**
 * Every change of a run's state happens in this file.
 *
 * ```
 *   (accepted) -> queued -> running -> completed
 *                   |         |  \---> failed      (step failed, bad input, limit, bug, worker lost, expired)
 *                   |         \------> cancelled   (POST .../cancel, run_cancel, Try it "Cancel")
 *                   \----------------> cancelled | failed (worker lost / expired before it started)
 * ```
 *
 * - Creation inserts `queued` (lib/runs/create-run.ts, with its job and metering).
 * - `claimRun`: queued -> running (a retried job may reclaim its own `running` run).
 * - `finalizeRun(tx, ...)`: the one way to a final state, used by finish (worker), cancel,
 *   worker loss (dead letter) and expiry (maintenance). In ONE statement it writes the
 *   state, `finished_at` (the database clock, UTC), the processing time
 *   (`finished_at - started_at`, 0 for a run that never started), the error, removes the
 *   caller data from the stored request (only the fingerprint stays), meters the processing
 *   time on the workspace, and sends `pg_notify('run_final', id)` that wakes requests
 *   waiting on the run. A run that is already final is left untouched (`null` returned), so
 *   racing paths (a cancel and the finish) can never both win. The same statement queues the
 *   run's webhook deliveries (lib/runs/run-webhooks.ts), whose jobs are sent in the same
 *   transaction.
 */
import "server-only";
import { db, type TTx } from "@/lib/db";
import { usageShard, usageUpsertSql } from "@/lib/metering/usage";
import { RUN_FINAL_CHANNEL } from "@/lib/runs/run-events";
import type { TFinalState, TRunState } from "@/lib/runs/run-state-names";
import type { TRunError } from "@/lib/runs/run-document";
import type { TResultFormat } from "@/lib/formats/registry";
import { enqueueDeliveries, EVENT_OF, queueDeliveriesSql, SUBSCRIBER_URI_OF } from "@/lib/runs/run-webhooks";

/** The states a run may move to each final state from (the diagram above). */
const FINAL_FROM: Record<TFinalState, TRunState[]> = { completed: ["running"], failed: ["queued", "running"], cancelled: ["queued", "running"] };

/** "Now" for run timestamps: the database clock at the statement (not the transaction start), UTC. */
const NOW_SQL = `(clock_timestamp() AT TIME ZONE 'UTC')::timestamp(3)`;

/**
 * The stored request without caller data: every input given as `geojson`, `rows`, `area` or
 * `href` (a URL may carry a signed query string) becomes `{"removed": "<form>"}`; layer ids,
 * nulls and parameters stay.
 */
export const WITHOUT_CALLER_DATA_SQL = `CASE WHEN "request" IS NULL THEN NULL ELSE jsonb_build_object(
  'inputs', coalesce((
    SELECT jsonb_object_agg(i.key, CASE
      WHEN jsonb_typeof(i.value) = 'object' AND NOT i.value ? 'layer_id'
        THEN jsonb_build_object('removed', coalesce((SELECT k FROM jsonb_object_keys(i.value) AS k LIMIT 1), 'data'))
      ELSE i.value END)
    FROM jsonb_each(coalesce("request"->'inputs', '{}'::jsonb)) AS i), '{}'::jsonb),
  'parameters', coalesce("request"->'parameters', '{}'::jsonb)) END`;

export interface TClaimedRun {
  id: string;
  workspaceId: string;
  /** The saved flow version the run executes, or null for a preview (then `flowDocument`). */
  flowVersionId: string | null;
  /** A preview's flow (an unsaved document with a result per step), else null. */
  flowDocument: unknown;
  request: { inputs: Record<string, unknown>; parameters: Record<string, unknown> } | null;
  formats: Record<string, TResultFormat>;
  startedAt: Date;
}

/**
 * queued -> running for the worker (or running -> running when pg-boss retries the job of
 * a worker that died). Progress restarts at 0 of N. Returns null when the run is final
 * already (cancelled before it started, or finished by an earlier attempt).
 */
export async function claimRun(runId: string): Promise<TClaimedRun | null> {
  // A run started for the first time owes its OGC subscriber's inProgressUri one call.
  const rows = await db.$queryRawUnsafe<(TClaimedRun & { progressDelivery: string | null })[]>(
    `WITH "before" AS (SELECT "state" FROM "run" WHERE "id" = $1::uuid),
     "claimed" AS (
       UPDATE "run" SET "state" = 'running', "startedAt" = coalesce("startedAt", ${NOW_SQL}), "stepsDone" = 0
       WHERE "id" = $1::uuid AND "state" IN ('queued', 'running')
       RETURNING "id", "workspaceId", "flowVersionId", "flowDocument", "request", "formats", "startedAt", "consumerId", "subscriber"),
     "progress" AS (${queueDeliveriesSql(`(SELECT c.* FROM "claimed" c, "before" b WHERE b."state" = 'queued')`, "'run.running'", `'${SUBSCRIBER_URI_OF["run.running"]}'`, false)})
     SELECT "id", "workspaceId", "flowVersionId", "flowDocument", "request", "formats", "startedAt",
       (SELECT "id"::text FROM "progress" LIMIT 1) AS "progressDelivery"
     FROM "claimed"`,
    runId,
  );
  const row = rows[0];
  if (!row) return null;
  const { progressDelivery, ...claimed } = row;
  if (progressDelivery) await db.$transaction((tx) => enqueueDeliveries(tx, [progressDelivery]));
  return claimed;
}

/** Progress of a running run (steps done of total); ignored once the run is final. */
export async function recordProgress(runId: string, stepsDone: number, stepsTotal: number): Promise<void> {
  await db.run.updateMany({ where: { id: runId, state: "running" }, data: { stepsDone, stepsTotal } });
}

export interface TFinalized {
  id: string;
  workspaceId: string;
  processingMs: number;
}

/**
 * Moves a run to a final state (see module doc). Run it inside the transaction that writes
 * whatever belongs with the final state (result files); it returns null, changing nothing,
 * when the run is not in a state that may move to `to` (already final).
 */
export async function finalizeRun(tx: TTx, args: { runId: string; to: TFinalState; error?: TRunError | null }): Promise<TFinalized | null> {
  const rows = await tx.$queryRawUnsafe<(TFinalized & { deliveries: string[] })[]>(
    `WITH "done" AS (
       UPDATE "run" SET
         "state" = $2::text::"RunState",
         "finishedAt" = "clock"."now",
         "processingMs" = CASE WHEN "startedAt" IS NULL THEN 0
           ELSE greatest(0, round(extract(epoch FROM ("clock"."now" - "startedAt")) * 1000))::int END,
         "error" = $3::jsonb,
         "request" = ${WITHOUT_CALLER_DATA_SQL},
         "stepsDone" = CASE WHEN $2::text = 'completed' THEN "stepsTotal" ELSE "stepsDone" END
       -- One reading of the clock for both: clock_timestamp() read twice can differ (by 8 ms once, under load).
       FROM (SELECT ${NOW_SQL} AS "now") AS "clock"
       WHERE "id" = $1::uuid AND "state"::text = ANY($4::text[])
       RETURNING "id", "workspaceId", "processingMs", "consumerId", "subscriber"),
     "deliveries" AS (${queueDeliveriesSql('"done"', "$6::text", "$7::text")}),
     "metered" AS (${usageUpsertSql({ workspace: '"workspaceId"', shard: "$5::int", processingMs: '"processingMs"', from: '"done"' })} RETURNING 1),
     -- pg_notify returns void, which clients cannot read: count its rows instead.
     "notified" AS (SELECT pg_notify('${RUN_FINAL_CHANNEL}', "id"::text) FROM "done")
     SELECT "id"::text AS "id", "workspaceId"::text AS "workspaceId", "processingMs",
       (SELECT count(*) FROM "notified")::int AS "notified", (SELECT count(*) FROM "metered")::int AS "metered",
       (SELECT coalesce(array_agg("id"::text), '{}') FROM "deliveries") AS "deliveries"
     FROM "done"`,
    args.runId,
    args.to,
    args.error ? JSON.stringify(args.error) : null,
    FINAL_FROM[args.to],
    usageShard(),
    EVENT_OF[args.to],
    SUBSCRIBER_URI_OF[EVENT_OF[args.to]],
  );
  const row = rows[0];
  if (!row) return null;
  await enqueueDeliveries(tx, row.deliveries);
  return { id: row.id, workspaceId: row.workspaceId, processingMs: row.processingMs };
}
