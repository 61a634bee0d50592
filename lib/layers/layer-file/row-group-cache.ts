/**
 * A least-recently-used cache of decoded row groups, bounded by an estimate of their heap
 * bytes (item-measure.ts), shared by every reader of a process that is given it: repeated runs
 * on the same layer and box decode each row group once. Entries are keyed by the layer file's
 * cache key, the row group index and the columns read. Cached row groups are shared: callers
 * must treat them as read-only.
 */
export interface TRowGroupCache {
  /** The row group under `key`, made most recently used; undefined when absent. */
  get<T>(key: string): T | undefined;
  /** Stores a row group of `bytes` estimated bytes, evicting the least recently used ones past the bound; one larger than the bound is not kept. */
  set<T>(key: string, group: T, bytes: number): void;
  /** Drops every entry (e.g. after a run failed on resources, so it leaves nothing behind). */
  clear(): void;
  /** Estimated bytes held now. */
  readonly bytes: number;
  /** Entries held now. */
  readonly size: number;
}

/** A cache holding at most `maxBytes` estimated bytes of decoded row groups (0 keeps nothing). */
export function createRowGroupCache(maxBytes: number): TRowGroupCache {
  // a Map iterates in insertion order: re-inserting on use keeps the least recent first
  const entries = new Map<string, { group: unknown; bytes: number }>();
  let held = 0;
  return {
    get<T>(key: string): T | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.group as T;
    },
    set<T>(key: string, group: T, bytes: number): void {
      const old = entries.get(key);
      if (old) {
        entries.delete(key);
        held -= old.bytes;
      }
      if (bytes > maxBytes) return;
      entries.set(key, { group, bytes });
      held += bytes;
      for (const [k, entry] of entries) {
        if (held <= maxBytes) break;
        entries.delete(k);
        held -= entry.bytes;
      }
    },
    clear(): void {
      entries.clear();
      held = 0;
    },
    get bytes() {
      return held;
    },
    get size() {
      return entries.size;
    },
  };
}
