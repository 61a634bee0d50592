/**
 * lib/metering/call-counter.ts: a flush resolves only once every write already under way is in
 * the database, so a page that flushes before it reads (the console's usage report) sees every
 * call this process recorded before it. Seen in the browser suite: a write the flush timer had
 * started was still running when the usage page flushed (nothing pending) and read, so the page
 * showed one request fewer.
 */
import { randomBytes } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { sql, waitFor } from "./helpers";
import { flushCallCounter, recordCall, type TCallRecord } from "@/lib/metering/call-counter";

afterAll(async () => {
  const { pool } = await import("@/lib/db");
  await pool().end();
});

async function stored(api: string): Promise<number> {
  const { rows } = await sql().query(`SELECT COALESCE(sum("count"), 0)::int AS n FROM call_counter WHERE api = $1`, [api]);
  return rows[0].n;
}

it("a flush waits for the write the timer (or another flush) already started", async () => {
  const call: TCallRecord = {
    organization: "demo",
    environment: "production",
    door: "http",
    api: `flush-${randomBytes(4).toString("hex")}`,
    consumerId: null,
    status: 200,
  };
  // Hold back every write to call_counter until we let go.
  const blocker = await sql().connect();
  await blocker.query("BEGIN");
  await blocker.query(`LOCK TABLE call_counter IN SHARE ROW EXCLUSIVE MODE`);
  let released = false;
  try {
    recordCall(call);
    const underWay = flushCallCounter(); // takes the pending call and starts its write: blocked
    let secondDone = false;
    const second = flushCallCounter().then(() => (secondDone = true)); // nothing pending of its own
    await waitFor(
      "the write under way to wait for the lock",
      async () =>
        (await sql().query(`SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'call_counter' AND NOT l.granted`)).rows.length >
        0,
      10_000,
    );
    expect(secondDone).toBe(false); // the second flush waits for that write
    released = true;
    await blocker.query("COMMIT");
    await second;
    expect(await stored(call.api)).toBe(1);
    await underWay;
  } finally {
    if (!released) await blocker.query("ROLLBACK");
    blocker.release();
  }
});
