/**
 * lib/metering/call-counter.ts: a flush resolves only once every write already under way is in
 * the database, so a page that flushes before it reads (the console's usage report) sees every
 * call this process recorded before it. Seen in the browser suite: a write the flush timer had
 * started was still running when the usage page flushed (nothing pending) and read, so the page
 * showed one request fewer.
 */
import { randomBytes } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { sql } from "./helpers";
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
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    recordCall(call);
    const underWay = flushCallCounter(); // takes the pending call and starts its write: blocked
    timer = setTimeout(() => {
      released = true;
      void blocker.query("COMMIT");
    }, 300);
    await flushCallCounter(); // nothing pending of its own
    expect(released).toBe(true);
    expect(await stored(call.api)).toBe(1);
    await underWay;
  } finally {
    clearTimeout(timer);
    if (!released) await blocker.query("ROLLBACK");
    blocker.release();
  }
});
