/**
 * The one policy of an API-key call, whatever door it came through (HTTP: lib/http/public-route.ts,
 * one call per request; MCP: lib/mcp/server.ts, one call per tool call that names an API). In order:
 *
 * 1. resolve the caller (the door's resolver: AppError 401 / 403 / 404); a cached caller is
 *    resolved again when keys, grants, releases or plans changed since it was cached (the
 *    quota statement reads the auth version, lib/keys/caller-cache.ts);
 * 2. spend one call of the key's per-minute quota of the API's workspace (lib/rate-limit),
 *    handing its state to the door (HTTP writes it as header fields) and recording the key's
 *    last use (lib/keys/touch-api-key.ts); over it: `rate_limited` with the seconds to wait;
 * 3. for calls that start runs, `service_unavailable` while no worker is alive (lib/health.ts);
 * 4. the call itself; a success (2xx, or no status) is metered as one API request
 *    (lib/metering/usage.ts), unless the call meters itself in its own transaction (`createRun`);
 * 5. the call log (lib/metering/call-counter.ts): the success, or a refusal by status (4xx),
 *    under the API and consumer known so far. Never waits, never fails the call.
 *
 * Errors pass through as thrown; `asAppError` is what every door answers for one (a database
 * outage as 503, anything else logged and answered `internal` without internals).
 */
import "server-only";
import { AppError, ERROR_STATUS } from "@/lib/errors";
import { databaseAppError } from "@/lib/database/unavailable";
import { workerAlive } from "@/lib/health";
import type { TDeferredCaller } from "@/lib/keys/caller-cache";
import { touchApiKey } from "@/lib/keys/touch-api-key";
import { recordCall, type TCallRecord } from "@/lib/metering/call-counter";
import { addUsage } from "@/lib/metering/usage";
import { consumeRateLimit } from "@/lib/rate-limit/rate-limit";
import { isAllowed, type TRateLimitState } from "@/lib/rate-limit/headers";
import type { TApiPath, TKeyScope, TRunTarget } from "@/lib/runs/scope";

/** What the policy needs of a resolved caller. */
export interface TKeyCallee {
  path: TApiPath;
  keyId: string;
  scope: TKeyScope;
  target: Pick<TRunTarget, "workspaceId">;
  plan: { rateLimitPerMinute: number };
}

export interface TKeyCall<C extends TKeyCallee> {
  door: TCallRecord["door"];
  /** Where the call log counts a call refused before its caller is resolved (`api` "" when none is named). */
  at: Pick<TCallRecord, "organization" | "environment" | "api" | "consumerId">;
  /** Resolves the caller (step 1). */
  resolve: () => Promise<TDeferredCaller<C>>;
  /** Resolves a stale cached caller again, bypassing the cache. */
  reload?: () => Promise<C>;
  requiresWorker?: boolean;
  /** "call": the call counts itself as an API request (in its own transaction). */
  metered?: "policy" | "call";
  /** The quota state once spent, also when it refuses the call. */
  onQuota?: (state: TRateLimitState) => void;
}

/** Runs `fn` for the resolved caller under the policy (see module doc). */
export async function withKeyCall<C extends TKeyCallee, T>(call: TKeyCall<C>, fn: (caller: C) => Promise<T>): Promise<T> {
  let log: Omit<TCallRecord, "status"> = { ...call.at, door: call.door };
  try {
    const resolved = await call.resolve();
    let caller = resolved.value;
    const counted = await consumeRateLimit(caller.keyId, caller.target.workspaceId, caller.plan.rateLimitPerMinute);
    // A revoked key is refused here, its call counted in a window nobody reads.
    if (!resolved.fresh && counted.authVersion !== resolved.authVersion && call.reload) caller = await call.reload();
    log = { ...log, api: caller.path.api, consumerId: caller.scope.consumerId };
    touchApiKey(caller.keyId);
    const quota = { ...counted, limit: caller.plan.rateLimitPerMinute };
    call.onQuota?.(quota);
    if (!isAllowed(quota)) {
      throw new AppError("rate_limited", `This API key may make ${quota.limit} calls per minute to APIs of this workspace.`, {
        retryAfterSeconds: quota.resetSeconds,
      });
    }
    if (call.requiresWorker && !(await workerAlive())) {
      throw new AppError(
        "service_unavailable",
        "No worker is available to run flows right now; nothing was started. Retry shortly; reading runs and results still works.",
        {
          retryAfterSeconds: 5,
        },
      );
    }
    const result = await fn(caller);
    // An HTTP answer stands for its status; anything else (an MCP tool's answer) for a success.
    const status = result instanceof Response ? result.status : 200;
    if (status >= 200 && status < 300 && call.metered !== "call") await addUsage(caller.target.workspaceId, { apiRequests: 1 });
    recordCall({ ...log, status });
    return result;
  } catch (err) {
    if (err instanceof AppError) recordCall({ ...log, status: ERROR_STATUS[err.code] });
    throw err;
  }
}

/** What a door answers for anything thrown: an AppError as is, a database outage as 503, else `internal` (logged with `where`). */
export function asAppError(err: unknown, where: string): AppError {
  const known = err instanceof AppError ? err : databaseAppError(err);
  if (known) return known;
  console.error(`[${new Date().toISOString()}] unexpected error ${where}:`, err);
  return new AppError("internal", "An unexpected error occurred. It has been logged.");
}
