/**
 * Cross-process run events over Postgres LISTEN/NOTIFY. When a run reaches a final state,
 * the transaction that finishes it also runs `pg_notify('run_final', run_id)`; each web
 * process holds one listening connection and wakes the requests waiting on that run
 * (`wait_seconds`), so they answer within milliseconds instead of at the next poll.
 */
import "server-only";
import pg from "pg";
import { env } from "@/lib/env";
import type { TTx } from "@/lib/db";

export const RUN_FINAL_CHANNEL = "run_final";

type TWaiter = () => void;

interface TListener {
  waiters: Map<string, Set<TWaiter>>;
  ready: Promise<void>;
}

const globalForEvents = globalThis as unknown as { runListener?: TListener };

function startListener(): TListener {
  const listener: TListener = { waiters: new Map(), ready: Promise.resolve() };
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: env().DATABASE_URL });
    client.on("notification", (msg) => {
      if (!msg.payload) return;
      const set = listener.waiters.get(msg.payload);
      if (set) for (const wake of set) wake();
    });
    client.on("error", () => {
      // Reconnect; waiters meanwhile fall back to their safety re-check.
      client.end().catch(() => {});
      listener.ready = new Promise((r) => setTimeout(r, 1000)).then(connect);
      for (const set of listener.waiters.values()) for (const wake of set) wake();
    });
    await client.connect();
    await client.query(`LISTEN ${RUN_FINAL_CHANNEL}`);
  };
  listener.ready = connect().catch((err) => {
    globalForEvents.runListener = undefined;
    throw err;
  });
  return listener;
}

function listener(): TListener {
  globalForEvents.runListener ??= startListener();
  return globalForEvents.runListener;
}

/**
 * Waits until `isFinal()` is true or `ms` pass. Registers for the notification before the
 * first check, so a run that finishes in between is never missed; re-checks every 5 s as a
 * safety net against a lost connection.
 */
export async function waitForRunFinal(runId: string, ms: number, isFinal: () => Promise<boolean>): Promise<boolean> {
  if (ms <= 0) return isFinal();
  const l = listener();
  await l.ready;
  let wake: TWaiter = () => {};
  let signalled = new Promise<void>((r) => (wake = r));
  const set = l.waiters.get(runId) ?? new Set();
  const onNotify: TWaiter = () => wake();
  set.add(onNotify);
  l.waiters.set(runId, set);
  const deadline = Date.now() + ms;
  try {
    while (true) {
      if (await isFinal()) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([signalled, new Promise<void>((r) => (timer = setTimeout(r, Math.min(left, 5000))))]);
      clearTimeout(timer);
      signalled = new Promise<void>((r) => (wake = r));
    }
  } finally {
    set.delete(onNotify);
    if (set.size === 0) l.waiters.delete(runId);
  }
}

/** Queues the final-state notification inside `tx`; Postgres delivers it on commit. */
export async function notifyRunFinal(tx: TTx, runId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${RUN_FINAL_CHANNEL}, ${runId})`;
}
