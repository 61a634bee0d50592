/**
 * "Last used" of an API key (or of an OAuth consent, which stands for a key on the MCP door), written by the front doors after a key was accepted. Off the
 * request's critical path: the caller does not wait (`touchApiKey` never throws; a failed
 * write is lost, the next use writes again), and each process writes a key at most once per
 * `TOUCH_INTERVAL_MS`, so a busy key costs one UPDATE per interval, not one per call. The
 * write does not empty the caller caches: the `api_key` trigger ignores `lastUsedAt`
 * (migration 20261216000000_console).
 */
import "server-only";
import { db } from "@/lib/db";

export const TOUCH_INTERVAL_MS = 5_000;
const lastTouch = new Map<string, number>();

export function touchApiKey(keyId: string): void {
  const now = Date.now();
  const last = lastTouch.get(keyId);
  if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
  if (lastTouch.size > 10_000) lastTouch.clear();
  lastTouch.set(keyId, now);
  // An OAuth consent stands for a key on the MCP door (lib/oauth): its "last used" is the same
  // thing, written by the same statement (the id is one or the other).
  db.$executeRaw`WITH k AS (UPDATE "api_key" SET "lastUsedAt" = clock_timestamp() AT TIME ZONE 'UTC' WHERE "id" = ${keyId}::uuid)
    UPDATE "oauth_authorization" SET "lastUsedAt" = clock_timestamp() AT TIME ZONE 'UTC' WHERE "id" = ${keyId}::uuid`.catch(() => lastTouch.delete(keyId));
}
