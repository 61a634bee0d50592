/**
 * Cross-process run events over Postgres LISTEN/NOTIFY. When a run reaches a final state,
 * the transaction that finishes it also runs `pg_notify('run_final', run_id)`; each web
 * process listens (lib/database/pg-listener.ts) and wakes the requests waiting on that run
 * (`wait_seconds`), so they answer within milliseconds instead of at the next poll.
 */
import "server-only";
import { subscribe } from "@/lib/database/pg-listener";

export const RUN_FINAL_CHANNEL = "run_final";

/** "final": this run's completion was notified; "gap": notifications may have been lost. */
type TWaiter = (reason: "final" | "gap") => void;

const globalForEvents = globalThis as unknown as { runWaiters?: Map<string, Set<TWaiter>>; runSubscribed?: Promise<unknown> };

function waiters(): Map<string, Set<TWaiter>> {
  if (!globalForEvents.runWaiters) {
    const map = new Map<string, Set<TWaiter>>();
    globalForEvents.runWaiters = map;
    globalForEvents.runSubscribed = subscribe(
      RUN_FINAL_CHANNEL,
      (runId) => {
        const set = map.get(runId);
        if (set) for (const wake of set) wake("final");
      },
      // Notifications may have been lost: every waiter re-checks the database.
      () => {
        for (const set of map.values()) for (const wake of set) wake("gap");
      },
    ).catch((err) => {
      globalForEvents.runWaiters = undefined;
      throw err;
    });
  }
  return globalForEvents.runWaiters;
}

/**
 * Waits until the run is final or `ms` pass; resolves true when final. Registers for the
 * notification before the first `isFinal()` check, so a run that finishes in between is
 * never missed. A `run_final` notification is only ever sent by the transaction that made
 * the run final, so it is trusted without another query (this is the latency that
 * `wait_seconds` callers see); after a gap in notifications, and every 5 s as a safety
 * net, the database is asked again.
 */
export async function waitForRunFinal(runId: string, ms: number, isFinal: () => Promise<boolean>): Promise<boolean> {
  if (ms <= 0) return isFinal();
  const map = waiters();
  await globalForEvents.runSubscribed;
  let wake: TWaiter = () => {};
  let signalled = new Promise<"final" | "gap">((r) => (wake = r));
  const set = map.get(runId) ?? new Set();
  const onNotify: TWaiter = (reason) => wake(reason);
  set.add(onNotify);
  map.set(runId, set);
  const deadline = Date.now() + ms;
  try {
    if (await isFinal()) return true;
    while (true) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      const reason = await Promise.race([signalled, new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), Math.min(left, 5000))))]);
      clearTimeout(timer);
      if (reason === "final") return true;
      signalled = new Promise<"final" | "gap">((r) => (wake = r));
      if (await isFinal()) return true;
    }
  } finally {
    set.delete(onNotify);
    if (set.size === 0) map.delete(runId);
  }
}
