/**
 * The pool's limits, against a TCP server that accepts connections and never answers, as a
 * PostgreSQL stopped with SIGSTOP does (the kernel still accepts): callers beyond the bounded
 * queue are refused at once as overloaded, and every wait ends.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BoundedPool, CLIENT_TIMEOUT_MARGIN_MS, PoolOverloadedError, poolOptions, shedReason, type TPoolLoad } from "@/lib/db";

let silent: net.Server;
const sockets = new Set<net.Socket>();
let url = "";

beforeAll(async () => {
  silent = net.createServer((s) => {
    sockets.add(s);
    s.on("error", () => {});
  });
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  url = `postgresql://u:p@127.0.0.1:${(silent.address() as net.AddressInfo).port}/db`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
});

/** Settles `p` and says how: "ok", or the error. */
async function outcome(p: Promise<unknown>): Promise<"ok" | Error> {
  try {
    await p;
    return "ok";
  } catch (err) {
    return err as Error;
  }
}

describe("BoundedPool", () => {
  it("lets `maxWaiting` callers wait for a busy pool and refuses the next ones at once as overloaded", async () => {
    const pool = new BoundedPool({ connectionString: url, max: 2, connectionTimeoutMillis: 300 }, { maxWaiting: 3, maxWaitMs: 60_000 });
    pool.on("error", () => {});
    // 2 connections being opened (the server never answers), then 3 waiting, then 2 more callers
    const calls = Array.from({ length: 7 }, () => outcome(pool.query("SELECT 1")));
    // At once: before any admitted caller settles (they wait for the connect timeout).
    const first = await Promise.race([calls[5]!, Promise.race(calls.slice(0, 5)).then(() => "an admitted caller settled first")]);
    expect(first).toBeInstanceOf(PoolOverloadedError);
    const all = await Promise.all(calls);
    const overloaded = all.filter((o) => o instanceof PoolOverloadedError);
    expect(overloaded.length).toBe(2);
    // the admitted 5 did wait, and gave up at the connect timeout: not overloaded
    expect(all.slice(0, 5).every((o) => o instanceof Error && !(o instanceof PoolOverloadedError))).toBe(true);
    await pool.end();
  });

  it("refuses through connect() as a promise too", async () => {
    const pool = new BoundedPool({ connectionString: url, max: 1, connectionTimeoutMillis: 200 }, { maxWaiting: 0, maxWaitMs: 60_000 });
    pool.on("error", () => {});
    const first = outcome(pool.connect());
    expect(await outcome(pool.connect())).toBeInstanceOf(PoolOverloadedError);
    expect(await first).toBeInstanceOf(Error);
    await pool.end();
  });
});

describe("shedReason", () => {
  const busy: TPoolLoad = { idle: 0, total: 20, max: 20, waiting: 0, holdMs: 10, maxWaiting: 1_000, maxWaitMs: 2_000 };

  it("admits every caller while a connection is free or may still be opened, however long the queue", () => {
    expect(shedReason({ ...busy, idle: 3, waiting: 2, holdMs: 1e6, maxWaiting: 0 })).toBeNull();
    expect(shedReason({ ...busy, total: 19, waiting: 0, holdMs: 1e6, maxWaiting: 0 })).toBeNull();
  });

  it("counts idle connections, and connections yet to open, that are already promised to waiters as busy (pg-pool serves waiters on the next tick)", () => {
    // 20 idle, 1,020 arrived in one tick: 1,000 of them wait for a connection
    expect(shedReason({ ...busy, idle: 20, waiting: 1_019, holdMs: 0 })).toBeNull();
    expect(shedReason({ ...busy, idle: 20, waiting: 1_020, holdMs: 0 })).toMatch(/1000 callers already wait/);
    // 1 connection of 20 open and idle, 1,020 arrived in one tick: the same
    expect(shedReason({ ...busy, total: 1, idle: 1, waiting: 1_019, holdMs: 0 })).toBeNull();
    expect(shedReason({ ...busy, total: 1, idle: 1, waiting: 1_020, holdMs: 0 })).toMatch(/1000 callers already wait/);
  });

  it("refuses the caller after maxWaiting waiting ones", () => {
    expect(shedReason({ ...busy, waiting: 999, holdMs: 0 })).toBeNull();
    expect(shedReason({ ...busy, waiting: 1_000, holdMs: 0 })).toMatch(/1000 callers already wait/);
  });

  it("refuses a caller whose expected wait exceeds maxWaitMs: callers ahead and itself, over the connections, times the mean hold", () => {
    // 20 connections held 40 ms each serve 500 callers a second: 2 s admit the 1,000th caller, not the 1,001st
    expect(shedReason({ ...busy, holdMs: 40, waiting: 999, maxWaiting: 5_000 })).toBeNull(); // (999 + 1) * 40 / 20 = 2,000 ms
    expect(shedReason({ ...busy, holdMs: 40, waiting: 1_000, maxWaiting: 5_000 })).toMatch(/about 2002 ms \(limit 2000 ms\)/);
    // a burst of quick queries is queued, not refused
    expect(shedReason({ ...busy, holdMs: 2, waiting: 900 })).toBeNull();
  });
});

describe("poolOptions", () => {
  it("sets the server's statement and idle-in-transaction timeouts and a client timeout a little longer than the server's", () => {
    const o = poolOptions({
      DATABASE_POOL_SIZE: 7,
      DATABASE_CONNECT_TIMEOUT_MS: 1_234,
      DATABASE_STATEMENT_TIMEOUT_MS: 4_000,
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: 9_000,
    });
    expect(o).toMatchObject({ max: 7, connectionTimeoutMillis: 1_234, statement_timeout: 4_000, idle_in_transaction_session_timeout: 9_000 });
    expect(o.query_timeout).toBe(4_000 + CLIENT_TIMEOUT_MARGIN_MS);
    expect(CLIENT_TIMEOUT_MARGIN_MS).toBeGreaterThan(0);
  });
});
