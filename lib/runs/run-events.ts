/**
 * Cross-process run events over Postgres LISTEN/NOTIFY. When a run reaches a final state,
 * the transaction that finishes it also runs `pg_notify('run_final', run_id)`; each web
 * and worker process listens (lib/database/pg-listener.ts) and wakes what waits on that run:
 * requests with `wait_seconds`, which answer within milliseconds instead of at the next poll,
 * and the worker running it, which stops a cancelled run's work (lib/runs/execute-run.ts).
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
 * Waits until the run is final or `ms` pass (or `signal` aborts); resolves true when final.
 * Registers for the notification before the first `isFinal()` check, so a run that finishes
 * in between is never missed. A `run_final` notification is only ever sent by the transaction
 * that made the run final, so it is trusted without another query (this is the latency that
 * `wait_seconds` callers see); after a gap in notifications, and every `checkMs` (default 5 s)
 * as a safety net, the database is asked again.
 */
export async function waitForRunFinal(runId: string, ms: number, isFinal: () => Promise<boolean>, signal?: AbortSignal, checkMs = 5000): Promise<boolean> {
  if (ms <= 0) return isFinal();
  const map = waiters();
  await globalForEvents.runSubscribed;
  let wake: TWaiter = () => {};
  let signalled = new Promise<"final" | "gap">((r) => (wake = r));
  const set = map.get(runId) ?? new Set();
  const onNotify: TWaiter = (reason) => wake(reason);
  set.add(onNotify);
  map.set(runId, set);
  const stopped = new Promise<"stopped">((r) => signal?.addEventListener("abort", () => r("stopped"), { once: true }));
  const deadline = Date.now() + ms;
  try {
    if (await isFinal()) return true;
    while (true) {
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), Math.min(left, checkMs))));
      const reason = await Promise.race([stopped, signalled, timeout]);
      clearTimeout(timer);
      if (reason === "stopped") return false;
      if (reason === "final") return true;
      signalled = new Promise<"final" | "gap">((r) => (wake = r));
      if (await isFinal()) return true;
    }
  } finally {
    set.delete(onNotify);
    if (set.size === 0) map.delete(runId);
  }
}
