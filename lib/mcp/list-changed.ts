/**
 * `notifications/tools/list_changed` for AI clients that can receive it.
 *
 * What decides a key's tools (publishing, unpublishing, the "Available to AI assistants"
 * switch, grants, keys, plans) is guarded by the `auth_changed` trigger (migration
 * 20261202000000), whose NOTIFY reaches every web process. Each process forwards it, debounced
 * (`DEBOUNCE_MS`), to the SDK's event bus, which writes the notification on every open
 * 2026-07-28 `subscriptions/listen` stream that asked for tool-list changes. A change that
 * leaves a given key's tools as they were still notifies it: the client just lists again.
 *
 * 2025-era clients are served statelessly (no GET stream, no session), so there is nothing
 * to send it on; their initialize answer says `listChanged: false` (lib/mcp/server.ts).
 */
import "server-only";
import { subscribe } from "@/lib/database/pg-listener";
import { AUTH_CHANGED_CHANNEL } from "@/lib/keys/caller-cache";

const DEBOUNCE_MS = 200;

/** Calls `notify` (debounced) whenever the tools of some key may have changed. Idempotent per process. */
export function watchToolListChanges(notify: () => void): void {
  let timer: NodeJS.Timeout | null = null;
  const fire = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      notify();
    }, DEBOUNCE_MS);
  };
  subscribe(AUTH_CHANGED_CHANNEL, fire, fire).catch((err) => {
    console.error(`[${new Date().toISOString()}] MCP: could not listen for tool-list changes:`, err);
  });
}
