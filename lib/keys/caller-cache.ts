/**
 * Per-process cache of resolved callers (API key + path -> consumer, API, grant, pinned
 * flow version), so a busy API does not make three lookups per request.
 *
 * Correctness over speed: revocation must take effect at once (design.md "Keys"). A
 * trigger on every table that decides access sends NOTIFY `auth_changed` (migration
 * 20261202000000), and each notification empties the cache. The cache is used only while
 * this process is LISTENing; when the listener is down, every call goes to the database.
 * A generation counter stops a lookup that raced with an invalidation from storing its
 * (possibly stale) answer. Key expiry is checked on every use; entries also age out after
 * `TTL_MS` as a last safety net.
 *
 * A notification can arrive after the next request (the listening connection's backend is
 * scheduled later than the caller's next call, seen under load), so each entry also keeps
 * the `auth_version` it was loaded at: the triggers bump that row in the changing
 * transaction, and a hit is used only while the row still holds the entry's version (one
 * primary-key read per hit instead of the three lookups a miss makes). The HTTP door saves
 * even that round trip: `cachedCallerDeferred` returns a hit with the version it was loaded
 * at, the rate-limit statement that every call makes anyway returns the committed version
 * (lib/rate-limit/rate-limit.ts), and the key-call policy (lib/serving/key-call.ts) reloads
 * through `cachedCaller` when the two differ, before the call runs.
 */
import "server-only";
import { db } from "@/lib/db";
import { listening, subscribe } from "@/lib/database/pg-listener";

export const AUTH_CHANGED_CHANNEL = "auth_changed";
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface TEntry<T> {
  value: T;
  keyExpiresAt: Date | null;
  storedAt: number;
  authVersion: bigint;
}

/** The committed `auth_version` (see module doc). */
async function authVersion(): Promise<bigint> {
  const rows = await db.$queryRaw<{ version: bigint }[]>`SELECT "version" FROM "auth_version" WHERE "id" = 1`;
  return rows[0]?.version ?? 0n;
}

interface TCacheState {
  entries: Map<string, TEntry<unknown>>;
  generation: number;
  subscribed: Promise<unknown> | null;
}

const globalForCache = globalThis as unknown as { callerCache?: TCacheState };

function state(): TCacheState {
  globalForCache.callerCache ??= { entries: new Map(), generation: 0, subscribed: null };
  const s = globalForCache.callerCache;
  s.subscribed ??= subscribe(
    AUTH_CHANGED_CHANNEL,
    () => invalidate(s),
    () => invalidate(s),
  ).catch(() => {
    s.subscribed = null; // retried on the next lookup; meanwhile nothing is cached
  });
  return s;
}

function invalidate(s: TCacheState): void {
  s.generation++;
  s.entries.clear();
}

/**
 * Returns the cached value for `key`, or loads it with `load` (which also reports the key's
 * expiry) and caches it when that is safe.
 */
export async function cachedCaller<T>(key: string, load: () => Promise<{ value: T; keyExpiresAt: Date | null }>): Promise<T> {
  const s = state();
  const now = Date.now();
  // Read before loading: a change committed during the load makes the stored entry's version
  // stale, so the next hit reloads (never the other way round).
  const version = await authVersion();
  const hit = liveEntry<T>(s, key, now);
  if (hit && hit.authVersion === version) return hit.value;
  return loadAndStore(s, key, load, now, version);
}

/** The entry of `key` while this process listens, younger than `TTL_MS`, its key not expired. */
function liveEntry<T>(s: TCacheState, key: string, now: number): TEntry<T> | undefined {
  const hit = listening(AUTH_CHANGED_CHANNEL) ? (s.entries.get(key) as TEntry<T> | undefined) : undefined;
  return hit && now - hit.storedAt < TTL_MS && (!hit.keyExpiresAt || hit.keyExpiresAt.getTime() > now) ? hit : undefined;
}

async function loadAndStore<T>(
  s: TCacheState,
  key: string,
  load: () => Promise<{ value: T; keyExpiresAt: Date | null }>,
  now: number,
  version: bigint,
): Promise<T> {
  const generation = s.generation;
  const loaded = await load();
  if (listening(AUTH_CHANGED_CHANNEL) && s.generation === generation) {
    if (s.entries.size >= MAX_ENTRIES) s.entries.clear();
    s.entries.set(key, { value: loaded.value, keyExpiresAt: loaded.keyExpiresAt, storedAt: now, authVersion: version });
  }
  return loaded.value;
}

/** A cached caller whose `auth_version` the caller checks itself (see module doc). */
export interface TDeferredCaller<T> {
  value: T;
  /** The `auth_version` the value was loaded at; compare with the committed one before use. */
  authVersion: bigint;
  /** Loaded just now (and so checked against the committed version already). */
  fresh: boolean;
}

/**
 * Like `cachedCaller`, but a hit costs no query: the caller must compare `authVersion` with
 * the committed `auth_version` read in a statement that starts after this call (the rate-limit
 * upsert does) and call `cachedCaller` for the same key when they differ.
 */
export async function cachedCallerDeferred<T>(key: string, load: () => Promise<{ value: T; keyExpiresAt: Date | null }>): Promise<TDeferredCaller<T>> {
  const s = state();
  const now = Date.now();
  const hit = liveEntry<T>(s, key, now);
  if (hit) return { value: hit.value, authVersion: hit.authVersion, fresh: false };
  const version = await authVersion();
  const value = await loadAndStore(s, key, load, now, version);
  return { value, authVersion: version, fresh: true };
}
