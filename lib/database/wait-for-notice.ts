/**
 * Waiting, across processes, for one thing to happen that a transaction announces with
 * `pg_notify(channel, payload)`: a run becoming final (lib/runs/run-events.ts), a result's format
 * being made (lib/runs/get-result-file.ts). Each process subscribes once per channel to its one
 * LISTEN connection (lib/database/pg-listener.ts) and wakes the waiters of that payload, so a
 * waiter answers within milliseconds of the commit instead of at its next poll.
 */
import "server-only";
import { subscribe } from "@/lib/database/pg-listener";

/** "notified": this payload was sent on the channel; "gap": notifications may have been lost. */
type TWaiter = (reason: "notified" | "gap") => void;

interface TChannelWaiters {
  byPayload: Map<string, Set<TWaiter>>;
  subscribed: Promise<void>;
}

const globalForNotices = globalThis as unknown as { noticeWaiters?: Map<string, TChannelWaiters> };

function channelWaiters(channel: string): TChannelWaiters {
  globalForNotices.noticeWaiters ??= new Map();
  const channels = globalForNotices.noticeWaiters;
  let entry = channels.get(channel);
  if (!entry) {
    const byPayload = new Map<string, Set<TWaiter>>();
    const subscribed = subscribe(
      channel,
      (payload) => {
        for (const wake of byPayload.get(payload) ?? []) wake("notified");
      },
      // Notifications may have been lost: every waiter re-checks the database.
      () => {
        for (const set of byPayload.values()) for (const wake of set) wake("gap");
      },
    ).catch((err: unknown) => {
      channels.delete(channel);
      throw err;
    });
    entry = { byPayload, subscribed };
    channels.set(channel, entry);
  }
  return entry;
}

/**
 * Waits until `payload` is notified on `channel` or `check()` says it happened, for at most `ms`
 * (or until `signal` aborts); resolves true when it happened, false otherwise.
 *
 * Registers for the notification before the first `check()`, so a notification sent in between
 * is never missed. A notification is trusted without another `check()` (only the transaction
 * that made the thing happen sends it): that is the latency a waiter sees. After a gap in
 * notifications, and every `checkMs` (default 5 s) as a safety net, `check()` is asked again.
 * @throws what subscribing throws (the LISTEN connection could not be made)
 */
export async function waitForNotice(
  channel: string,
  payload: string,
  ms: number,
  check: () => Promise<boolean>,
  signal?: AbortSignal,
  checkMs = 5000,
): Promise<boolean> {
  if (ms <= 0) return check();
  const { byPayload, subscribed } = channelWaiters(channel);
  await subscribed;
  let wake: TWaiter = () => {};
  let signalled = new Promise<"notified" | "gap">((r) => (wake = r));
  const set = byPayload.get(payload) ?? new Set();
  const onNotify: TWaiter = (reason) => wake(reason);
  set.add(onNotify);
  byPayload.set(payload, set);
  const stopped = new Promise<"stopped">((r) => signal?.addEventListener("abort", () => r("stopped"), { once: true }));
  const deadline = Date.now() + ms;
  try {
    if (await check()) return true;
    while (true) {
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), Math.min(left, checkMs))));
      const reason = await Promise.race([stopped, signalled, timeout]);
      clearTimeout(timer);
      if (reason === "stopped") return false;
      if (reason === "notified") return true;
      signalled = new Promise<"notified" | "gap">((r) => (wake = r));
      if (await check()) return true;
    }
  } finally {
    set.delete(onNotify);
    if (set.size === 0) byPayload.delete(payload);
  }
}
