/**
 * Metering (spec "Metering"): per workspace and UTC day, ETL runs, processing time (ms)
 * and API requests. Increments are single atomic upserts, so they can join the
 * transaction of the change they meter; they land on one of `USAGE_SHARDS` rows so that
 * concurrent transactions do not wait for each other's row lock. Totals sum the shards.
 */
import "server-only";
import { db } from "@/lib/db";

/** Rows per workspace and day; increments pick one at random (see prisma/schema.prisma). */
export const USAGE_SHARDS = 8;

export interface TUsageDelta {
  etlRuns?: number;
  processingMs?: number;
  apiRequests?: number;
}

/**
 * The counter upsert as SQL, for callers that insert or update their own row and meter it
 * in the same statement. Every field is an SQL expression: `workspace` (the workspace id)
 * and the increments are evaluated over `from` (a CTE name) when given, so nothing is
 * counted when that CTE is empty; increments left out are 0.
 */
export function usageUpsertSql(e: { workspace: string; shard: string; etlRuns?: string; processingMs?: string; apiRequests?: string; from?: string }): string {
  const int = (x: string | undefined) => (x === undefined ? "0" : `(${x})::int`);
  return `
    INSERT INTO "usage_counter" ("workspaceId", "day", "shard", "etlRuns", "processingMs", "apiRequests")
    SELECT ${e.workspace}, (now() AT TIME ZONE 'utc')::date, ${e.shard}, ${int(e.etlRuns)}, ${int(e.processingMs)}, ${int(e.apiRequests)}${e.from ? ` FROM ${e.from}` : ""}
    ON CONFLICT ("workspaceId", "day", "shard") DO UPDATE SET
      "etlRuns" = "usage_counter"."etlRuns" + EXCLUDED."etlRuns",
      "processingMs" = "usage_counter"."processingMs" + EXCLUDED."processingMs",
      "apiRequests" = "usage_counter"."apiRequests" + EXCLUDED."apiRequests"`;
}

/** A random shard for the next increment. */
export function usageShard(): number {
  return Math.floor(Math.random() * USAGE_SHARDS);
}

const UPSERT = usageUpsertSql({ workspace: "$1::uuid", shard: "$2::int", etlRuns: "$3", processingMs: "$4", apiRequests: "$5" });

/** Adds `delta` to today's (UTC) counter of `workspaceId`, in a statement of its own. */
export async function addUsage(workspaceId: string, delta: TUsageDelta): Promise<void> {
  await db.$executeRawUnsafe(UPSERT, workspaceId, usageShard(), delta.etlRuns ?? 0, Math.round(delta.processingMs ?? 0), delta.apiRequests ?? 0);
}
