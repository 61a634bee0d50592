/**
 * Calls per environment, API, consumer, UTC day and answer status (table `call_counter`),
 * recorded once the answer is decided by the key-call policy of both doors
 * (lib/serving/key-call.ts) and for MCP requests refused before any tool ran
 * (lib/mcp/handle-mcp-request.ts). It is what the console shows
 * beside the billing counters:
 * - status 200 (any 2xx): the billed API requests of each API and consumer. Billing itself
 *   is `usage_counter` (lib/metering/usage.ts); both are written for the same calls.
 * - 4xx: refused calls by reason (401 key, 403 grant or plan, 422 request, 429 rate limit,
 *   and 404/413/415 ...). Never billed (spec "Metering").
 *
 * `recordCall` is fire-and-forget: it never throws and the answer never waits for it, so a
 * slow or failed counter write cannot slow or fail a call (a lost increment is the accepted
 * cost). Calls are added up in memory and written every `FLUSH_MS` in one statement (one
 * upsert per distinct row per flush, instead of a write per call: measured 319 → 370 runs/s
 * on POST /runs with `npm run bench -- api`); a process that dies loses at most that last
 * fraction of a second of counts. `flushCallCounter` writes at once (the usage report calls
 * it, so a console page in the same process sees its own calls). Rows keep the shard column
 * of usage_counter so processes flushing at the same moment do not queue on one lock.
 */
import "server-only";
import { pool } from "@/lib/db";
import { usageShard } from "@/lib/metering/usage";

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

/** How long recorded calls wait in memory before they are written, ms. */
const FLUSH_MS = 500;

interface TPending {
  c: TCallRecord;
  status: number;
  count: number;
}

interface TCounterState {
  pending: Map<string, TPending>;
  timer: ReturnType<typeof setTimeout> | null;
  /** Writes started and not yet finished: a flush waits for them too. */
  writing: Set<Promise<void>>;
}

const globalForCounter = globalThis as unknown as { callCounter?: TCounterState };

function counterState(): TCounterState {
  globalForCounter.callCounter ??= { pending: new Map(), timer: null, writing: new Set() };
  return globalForCounter.callCounter;
}

/** Adds one call (see module doc); written within `FLUSH_MS`. */
export function recordCall(c: TCallRecord): void {
  // Successes (billed, every 2xx stored as 200) and client refusals (4xx); 3xx and 5xx are not recorded.
  const success = c.status >= 200 && c.status < 300;
  if (!success && (c.status < 400 || c.status >= 500)) return;
  const s = counterState();
  const status = success ? 200 : c.status;
  const key = JSON.stringify([c.organization, c.environment, c.door, c.api, c.consumerId ?? "", status]);
  const entry = s.pending.get(key);
  if (entry) entry.count++;
  else s.pending.set(key, { c, status, count: 1 });
  if (!s.timer) {
    s.timer = setTimeout(() => void flushCallCounter(), FLUSH_MS);
    s.timer.unref?.();
  }
}

/**
 * Writes the calls recorded so far in one upsert, and resolves once they and every write already
 * under way (the timer's) are in the database: a reader that flushes first sees every call this
 * process recorded before. Never throws (a failed write is logged with CALL_COUNTER_DEBUG).
 */
export async function flushCallCounter(): Promise<void> {
  const s = counterState();
  if (s.timer) clearTimeout(s.timer);
  s.timer = null;
  if (s.pending.size > 0) {
    const batch = [...s.pending.values()];
    s.pending = new Map();
    const write = writeBatch(batch);
    s.writing.add(write);
    void write.finally(() => s.writing.delete(write));
  }
  await Promise.all([...s.writing]);
}

async function writeBatch(batch: TPending[]): Promise<void> {
  const col = <T>(f: (p: TPending) => T) => batch.map(f);
  try {
    await pool().query(
      `INSERT INTO "call_counter" ("organization", "environment", "day", "door", "api", "consumerId", "status", "shard", "count")
       SELECT o, e, (now() AT TIME ZONE 'utc')::date, d, a, c, s, $7::smallint, n
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::smallint[], $8::int[]) AS t(o, e, d, a, c, s, n)
       ON CONFLICT ("organization", "environment", "day", "door", "api", "consumerId", "status", "shard")
         DO UPDATE SET "count" = "call_counter"."count" + EXCLUDED."count"`,
      [
        col((p) => p.c.organization),
        col((p) => p.c.environment),
        col((p) => p.c.door),
        col((p) => p.c.api),
        col((p) => p.c.consumerId ?? ""),
        col((p) => p.status),
        usageShard(),
        col((p) => p.count),
      ],
    );
  } catch (err) {
    if (process.env.CALL_COUNTER_DEBUG) console.error("[call-counter]", err);
  }
}
