/**
 * Calls per environment, API, consumer, UTC day and answer status (table `call_counter`),
 * recorded by the front doors once the answer is decided (HTTP: lib/http/public-route.ts;
 * MCP: lib/mcp/handle-mcp-request.ts and the metered tools). It is what the console shows
 * beside the billing counters:
 * - status 200 (any 2xx): the billed API requests of each API and consumer. Billing itself
 *   is `usage_counter` (lib/metering/usage.ts); both are written for the same calls.
 * - 4xx: refused calls by reason (401 key, 403 grant or plan, 422 request, 429 rate limit,
 *   and 404/413/415 ...). Never billed (spec "Metering").
 *
 * `recordCall` is fire-and-forget: it never throws and the answer never waits for it, so a
 * slow or failed counter write cannot slow or fail a call (a lost increment is the accepted
 * cost). Rows are sharded like usage_counter so concurrent calls do not queue on one lock.
 */
import "server-only";
import { db } from "@/lib/db";
import { USAGE_SHARDS } from "@/lib/metering/usage";

export interface TCallRecord {
  organization: string;
  environment: string;
  door: "http" | "mcp";
  /** API slug; "" when none was named (an MCP request refused before a tool call). */
  api: string;
  /** null when the caller is unknown (401). */
  consumerId: string | null;
  status: number;
}

/** The status bucket stored: every 2xx as 200; other statuses as they are. */
export function callStatusBucket(status: number): number {
  return status >= 200 && status < 300 ? 200 : status;
}

/** Whether a status is recorded: successes (billed) and client refusals (4xx); 3xx and 5xx are not. */
export function isRecordedStatus(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500);
}

/** Adds one call (see module doc); returns the write so tests may await it. */
export function recordCall(c: TCallRecord): Promise<void> {
  if (!isRecordedStatus(c.status)) return Promise.resolve();
  const shard = Math.floor(Math.random() * USAGE_SHARDS);
  return db.$executeRaw`
    INSERT INTO "call_counter" ("organization", "environment", "day", "door", "api", "consumerId", "status", "shard", "count")
    VALUES (${c.organization}, ${c.environment}, (now() AT TIME ZONE 'utc')::date, ${c.door}, ${c.api}, ${c.consumerId ?? ""}, ${callStatusBucket(c.status)}::smallint, ${shard}::smallint, 1)
    ON CONFLICT ("organization", "environment", "day", "door", "api", "consumerId", "status", "shard") DO UPDATE SET "count" = "call_counter"."count" + 1`.then(
    () => undefined,
    (err) => {
      if (process.env.CALL_COUNTER_DEBUG) console.error("[call-counter]", err);
    },
  );
}
