/**
 * Metering (spec "Metering"): per workspace and UTC day, ETL runs, processing time (ms)
 * and API requests. Increments are single atomic upserts, so they can join the
 * transaction of the change they meter.
 */
import "server-only";
import { db, type TTx } from "@/lib/db";

export interface TUsageDelta {
  etlRuns?: number;
  processingMs?: number;
  apiRequests?: number;
}

/** Adds `delta` to today's (UTC) counter of `workspaceId`, inside `tx` when given. */
export async function addUsage(workspaceId: string, delta: TUsageDelta, tx: TTx | typeof db = db): Promise<void> {
  const etl = delta.etlRuns ?? 0;
  const ms = Math.round(delta.processingMs ?? 0);
  const req = delta.apiRequests ?? 0;
  if (etl === 0 && ms === 0 && req === 0) return;
  await tx.$executeRaw`
    INSERT INTO "usage_counter" ("workspaceId", "day", "etlRuns", "processingMs", "apiRequests")
    VALUES (${workspaceId}::uuid, (now() AT TIME ZONE 'utc')::date, ${etl}, ${ms}, ${req})
    ON CONFLICT ("workspaceId", "day") DO UPDATE SET
      "etlRuns" = "usage_counter"."etlRuns" + EXCLUDED."etlRuns",
      "processingMs" = "usage_counter"."processingMs" + EXCLUDED."processingMs",
      "apiRequests" = "usage_counter"."apiRequests" + EXCLUDED."apiRequests"`;
}

/** Totals of a workspace over all days (for tests and the console). */
export async function usageTotals(workspaceId: string): Promise<{ etlRuns: number; processingMs: number; apiRequests: number }> {
  const rows = await db.$queryRaw<{ etl: bigint | null; ms: bigint | null; req: bigint | null }[]>`
    SELECT sum("etlRuns") AS etl, sum("processingMs") AS ms, sum("apiRequests") AS req
    FROM "usage_counter" WHERE "workspaceId" = ${workspaceId}::uuid`;
  const r = rows[0];
  return { etlRuns: Number(r?.etl ?? 0), processingMs: Number(r?.ms ?? 0), apiRequests: Number(r?.req ?? 0) };
}
