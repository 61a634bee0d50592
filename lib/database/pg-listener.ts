/**
 * One Postgres LISTEN connection per process, shared by everything that waits for
 * notifications (run completion for `wait_seconds`, invalidation of the caller cache).
 *
 * `subscribe(channel, onMessage, onGap)`: `onMessage(payload)` for each NOTIFY on
 * `channel`; `onGap()` whenever notifications may have been missed (the connection
 * dropped or is being re-established), so subscribers can fall back to the database.
 * `listening(channel)` is true only while the connection is up and LISTENing on it; a cache
 * that depends on invalidation must not trust itself otherwise.
 */
import "server-only";
import pg from "pg";
import { env } from "@/lib/env";

interface TSubscriber {
  onMessage: (payload: string) => void;
  onGap: () => void;
}

interface TListenerState {
  client: pg.Client | null;
  connecting: Promise<void> | null;
  channels: Map<string, Set<TSubscriber>>;
  active: Set<string>;
}

const globalForListener = globalThis as unknown as { pgListener?: TListenerState };

function state(): TListenerState {
  globalForListener.pgListener ??= { client: null, connecting: null, channels: new Map(), active: new Set() };
  return globalForListener.pgListener;
}

/** Tells every subscriber that notifications may have been missed. */
function wakeAll(s: TListenerState): void {
  for (const subs of s.channels.values()) for (const sub of subs) sub.onGap();
}

function quote(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  return channel;
}

async function connect(s: TListenerState): Promise<void> {
  const client = new pg.Client({ connectionString: env().DATABASE_URL, connectionTimeoutMillis: 5_000, keepAlive: true });
  client.on("notification", (msg) => {
    const subs = s.channels.get(msg.channel);
    if (subs) for (const sub of subs) sub.onMessage(msg.payload ?? "");
  });
  const drop = () => {
    if (s.client !== client) return;
    s.client = null;
    s.active.clear();
    client.end().catch(() => {});
    wakeAll(s);
    // Reconnect in the background; subscribers meanwhile use the database directly.
    setTimeout(() => void ensure(s).catch(() => {}), 1_000).unref();
  };
  client.on("error", drop);
  client.on("end", drop);
  await client.connect();
  s.client = client;
  for (const channel of s.channels.keys()) {
    await client.query(`LISTEN ${quote(channel)}`);
    s.active.add(channel);
  }
  // Anything sent before LISTEN took effect was missed.
  wakeAll(s);
}

function ensure(s: TListenerState): Promise<void> {
  if (s.client) return Promise.resolve();
  s.connecting ??= connect(s).finally(() => {
    s.connecting = null;
  });
  return s.connecting;
}

/** Subscribes to `channel`; resolves once the process is listening on it (a second LISTEN of a channel is harmless). */
export async function subscribe(channel: string, onMessage: (payload: string) => void, onGap: () => void): Promise<void> {
  const s = state();
  const subs = s.channels.get(channel) ?? new Set();
  s.channels.set(channel, subs.add({ onMessage, onGap }));
  await ensure(s);
  if (s.client && !s.active.has(channel)) {
    await s.client.query(`LISTEN ${quote(channel)}`);
    s.active.add(channel);
  }
}

/** True while notifications on `channel` are being received. */
export function listening(channel: string): boolean {
  const s = state();
  return s.client !== null && s.active.has(channel);
}
