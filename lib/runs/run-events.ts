/**
 * Cross-process run events over Postgres LISTEN/NOTIFY. When a run reaches a final state,
 * the transaction that finishes it also runs `pg_notify('run_final', run_id)`; each web
 * process listens (lib/database/pg-listener.ts) and wakes the requests waiting on that run
 * (`wait_seconds`), so they answer within milliseconds instead of at the next poll.
 */
import "server-only";
import type { TTx } from "@/lib/db";
import { subscribe } from "@/lib/database/pg-listener";

export const RUN_FINAL_CHANNEL = "run_final";

type TWaiter = () => void;

const globalForEvents = globalThis as unknown as { runWaiters?: Map<string, Set<TWaiter>>; runSubscribed?: Promise<unknown> };

function waiters(): Map<string, Set<TWaiter>> {
  if (!globalForEvents.runWaiters) {
    const map = new Map<string, Set<TWaiter>>();
    globalForEvents.runWaiters = map;
    globalForEvents.runSubscribed = subscribe(
      RUN_FINAL_CHANNEL,
      (runId) => {
        const set = map.get(runId);
        if (set) for (const wake of set) wake();
      },
      // Notifications may have been lost: every waiter re-checks the database.
      () => {
        for (const set of map.values()) for (const wake of set) wake();
      },
    ).catch((err) => {
      globalForEvents.runWaiters = undefined;
      throw err;
    });
  }
  return globalForEvents.runWaiters;
}

/**
 * Waits until `isFinal()` is true or `ms` pass. Registers for the notification before the
 * first check, so a run that finishes in between is never missed; re-checks every 5 s as a
 * safety net.
 */
export async function waitForRunFinal(runId: string, ms: number, isFinal: () => Promise<boolean>): Promise<boolean> {
  if (ms <= 0) return isFinal();
  const map = waiters();
  await globalForEvents.runSubscribed;
  let wake: TWaiter = () => {};
  let signalled = new Promise<void>((r) => (wake = r));
  const set = map.get(runId) ?? new Set();
  const onNotify: TWaiter = () => wake();
  set.add(onNotify);
  map.set(runId, set);
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
    if (set.size === 0) map.delete(runId);
  }
}

/** Queues the final-state notification inside `tx`; Postgres delivers it on commit. */
export async function notifyRunFinal(tx: TTx, runId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${RUN_FINAL_CHANNEL}, ${runId})`;
}
