/**
 * The one wrapper every public route handler uses. It
 * - parses the path params with zod (a bad slug is a 404, like a missing API),
 * - authenticates the key and resolves the API (lib/keys/resolve-key-caller.ts),
 * - applies the per-key rate limit (lib/rate-limit): 429 `rate_limited` with `Retry-After`
 *   over the quota, and the `RateLimit-Policy` / `RateLimit` header fields of the IETF draft
 *   "RateLimit header fields for HTTP" on every answer to an authenticated call,
 * - for handlers that start runs (`requiresWorker`), answers 503 while no worker is alive
 *   (lib/health.ts `workerAlive`, cached ~1.5 s) instead of accepting work nobody runs,
 * - maps AppError to RFC 9457 problem responses and hides unexpected errors (500, logged),
 *   answering 503 (with `Retry-After`) when the database cannot be reached, does not answer
 *   in time or its schema is missing (`service_unavailable`), or when too many requests
 *   already wait for a database connection (`overloaded`; lib/database/unavailable.ts),
 * - meters every 2xx answer as one API request, unless the handler metered it itself
 *   inside its own transaction (POST /runs),
 * - adds the CORS header fields for a browser origin the environment allows (lib/http/cors.ts),
 * - records the call for the console without making the answer wait (lib/metering/call-counter.ts:
 *   2xx per API and consumer, refusals by status, never billed) and the key's last use
 *   (lib/keys/touch-api-key.ts).
 *
 * `otherMethods` answers the methods a route does not serve: `OPTIONS` (a CORS preflight, or
 * plain `Allow`) and 405 problems with `Allow` (RFC 9110 section 15.5.6) for the rest.
 */
import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { databaseAppError } from "@/lib/database/unavailable";
import { problem } from "@/lib/http/problem";
import { resolveKeyCaller, resolveKeyCallerDeferred, type TKeyCaller } from "@/lib/keys/resolve-key-caller";
import type { TApiPath } from "@/lib/runs/scope";
import { addUsage } from "@/lib/metering/usage";
import { workerAlive } from "@/lib/health";
import { consumeRateLimit } from "@/lib/rate-limit/rate-limit";
import { isAllowed, rateLimitHeaders } from "@/lib/rate-limit/headers";
import { allowHeader, corsHeaders, preflight } from "@/lib/http/cors";
import { recordCall } from "@/lib/metering/call-counter";
import { touchApiKey } from "@/lib/keys/touch-api-key";

const ZSlug = z.string().regex(/^[a-z0-9-]{1,64}$/);
export const ZApiPath = z.object({ organization: ZSlug, environment: ZSlug, api: ZSlug });

export interface TPublicHandlerArgs<P> {
  req: Request;
  params: P;
  caller: TKeyCaller;
}

export interface TPublicRouteOptions<P extends z.ZodType> {
  params: P;
  /** "handler": the handler counts the request itself (in its own transaction). */
  metering?: "wrapper" | "handler";
  /** The handler accepts work for the worker: 503 while no worker is alive. */
  requiresWorker?: boolean;
}

type TRouteContext = { params: Promise<Record<string, string | string[]>> };

/** Copies extra headers onto a response (rebuilding it if its headers are immutable). */
function withHeaders(res: Response, extra: Record<string, string>): Response {
  try {
    for (const [k, v] of Object.entries(extra)) if (!res.headers.has(k)) res.headers.set(k, v);
    return res;
  } catch {
    const headers = new Headers(res.headers);
    for (const [k, v] of Object.entries(extra)) if (!headers.has(k)) headers.set(k, v);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

/** Turns any thrown value into a problem response. */
export function errorResponse(err: unknown, instance: string): Response {
  const known = err instanceof AppError ? err : databaseAppError(err);
  if (known) return problem(known.code, known.detail, { instance, errors: known.errors, retryAfterSeconds: known.retryAfterSeconds });
  console.error(`[${new Date().toISOString()}] unexpected error at ${instance}:`, err);
  return problem("internal", "An unexpected error occurred. It has been logged.", { instance });
}

/** Wraps a public API handler (see module doc). */
export function publicRoute<P extends z.ZodType<TApiPath>>(opts: TPublicRouteOptions<P>, handler: (args: TPublicHandlerArgs<z.infer<P>>) => Promise<Response>) {
  return async (req: Request, ctx: TRouteContext): Promise<Response> => {
    const instance = new URL(req.url).pathname;
    let limitHeaders: Record<string, string> = {};
    let path: TApiPath | null = null;
    let consumerId: string | null = null;
    const record = (status: number) => {
      if (path) recordCall({ organization: path.organization, environment: path.environment, door: "http", api: path.api, consumerId, status });
    };
    try {
      const parsed = opts.params.safeParse(await ctx.params);
      if (!parsed.success) throw new AppError("not_found", "No such resource.");
      const params = parsed.data as z.infer<P>;
      path = params;
      limitHeaders = await corsHeaders(req.headers.get("origin"), params);
      const cached = await resolveKeyCallerDeferred(params, req.headers.get("x-api-key"));
      let caller = cached.value;
      const counted = await consumeRateLimit(caller.keyId, caller.target.workspaceId, caller.plan.rateLimitPerMinute);
      // A key, grant, release or plan changed since the cached caller was loaded: resolve again
      // (a revoked key is refused here, its call counted in a window nobody reads).
      if (!cached.fresh && counted.authVersion !== cached.authVersion) caller = await resolveKeyCaller(params, req.headers.get("x-api-key"));
      const limit = { ...counted, limit: caller.plan.rateLimitPerMinute };
      consumerId = caller.scope.consumerId;
      touchApiKey(caller.keyId);
      limitHeaders = { ...limitHeaders, ...rateLimitHeaders(limit) };
      if (!isAllowed(limit)) {
        throw new AppError(
          "rate_limited",
          `This API key may make ${limit.limit} calls per minute to APIs of this workspace; retry after the time in Retry-After.`,
        );
      }
      if (opts.requiresWorker && !(await workerAlive())) {
        throw new AppError("service_unavailable", "No worker is available to run flows right now; retry shortly. Reading runs and results still works.", {
          retryAfterSeconds: 5,
        });
      }
      const res = await handler({ req, params, caller });
      if (res.status >= 200 && res.status < 300 && opts.metering !== "handler") {
        await addUsage(caller.target.workspaceId, { apiRequests: 1 });
      }
      record(res.status);
      return withHeaders(res, limitHeaders);
    } catch (err) {
      const res = errorResponse(err, instance);
      record(res.status);
      return withHeaders(res, limitHeaders);
    }
  };
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type TMethod = (typeof METHODS)[number];
type TRouteHandler = (req: Request, ctx: TRouteContext) => Promise<Response>;

/** `OPTIONS` and a 405 handler for every method of `METHODS` a public route does not serve (see module doc). */
export function otherMethods<P extends z.ZodType<Pick<TApiPath, "organization" | "environment">>>(
  params: P,
  served: readonly TMethod[],
): Record<TMethod | "OPTIONS", TRouteHandler> {
  const allow = allowHeader(served);
  const pathOf = async (ctx: TRouteContext) => {
    const parsed = params.safeParse(await ctx.params);
    return parsed.success ? (parsed.data as Pick<TApiPath, "organization" | "environment">) : null;
  };
  const notAllowed: TRouteHandler = async (req, ctx) => {
    const path = await pathOf(ctx);
    const res = problem("method_not_allowed", `${req.method} is not allowed here; this resource answers ${allow}.`, {
      instance: new URL(req.url).pathname,
      headers: { allow },
    });
    return withHeaders(res, path ? await corsHeaders(req.headers.get("origin"), path).catch(() => ({})) : {});
  };
  const handlers = Object.fromEntries(METHODS.map((m) => [m, notAllowed])) as Record<TMethod | "OPTIONS", TRouteHandler>;
  handlers.OPTIONS = async (req, ctx) => {
    try {
      return await preflight(req, await pathOf(ctx), served);
    } catch (err) {
      return errorResponse(err, new URL(req.url).pathname);
    }
  };
  return handlers;
}
