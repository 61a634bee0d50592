/**
 * The one wrapper every public route handler uses. It
 * - parses the path params with zod (a bad slug is a 404, like a missing API),
 * - authenticates the key and resolves the API (lib/api/resolve-caller.ts),
 * - applies the per-key rate limit (lib/rate-limit): 429 `rate_limited` with `Retry-After`
 *   over the quota, and the `RateLimit-Policy` / `RateLimit` header fields of the IETF draft
 *   "RateLimit header fields for HTTP" on every answer to an authenticated call,
 * - for handlers that start runs (`requiresWorker`), answers 503 while no worker is alive
 *   (lib/health.ts `workerAlive`, cached ~1.5 s) instead of accepting work nobody runs,
 * - maps ApiError to RFC 9457 problem responses and hides unexpected errors (500, logged),
 *   answering 503 (with `Retry-After`) when the database cannot be reached or its schema
 *   is missing (start-up or migration failure),
 * - meters every 2xx answer as one API request, unless the handler metered it itself
 *   inside its own transaction (POST /runs).
 */
import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { problem } from "@/lib/api/problem";
import { resolveCaller, type TCaller } from "@/lib/api/resolve-caller";
import { addUsage } from "@/lib/metering/usage";
import { workerAlive } from "@/lib/health";
import { consumeRateLimit } from "@/lib/rate-limit/rate-limit";
import { isAllowed, rateLimitHeaders } from "@/lib/rate-limit/headers";

const ZSlug = z.string().regex(/^[a-z0-9-]{1,64}$/);
export const ZApiPath = z.object({ organization: ZSlug, environment: ZSlug, api: ZSlug });

export interface TPublicHandlerArgs<P> {
  req: Request;
  params: P;
  caller: TCaller;
}

export interface TPublicRouteOptions<P extends z.ZodType> {
  params: P;
  /** "handler": the handler counts the request itself (in its own transaction). */
  metering?: "wrapper" | "handler";
  /** The handler accepts work for the worker: 503 while no worker is alive. */
  requiresWorker?: boolean;
}

type TRouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * True for errors that mean "the database is not reachable or not ready" rather than a
 * bug: connection refused/reset/timed out, the server shutting down or starting up, too
 * many connections, and a schema that is missing because migrations did not run
 * (Prisma P2021/P2022, Postgres 42P01 "relation does not exist").
 */
export function isDatabaseDown(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string; message?: string } } | undefined;
  const text = `${e?.code ?? ""} ${e?.cause?.code ?? ""} ${(err as Error)?.message ?? ""} ${e?.cause?.message ?? ""}`;
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|57P01|57P02|57P03|53300|08001|08006|P1001|P1002|P1017|P2021|P2022|42P01|Can't reach database|Connection terminated|connect ECONN|timeout exceeded when trying to connect|the database system is (starting up|shutting down)|is not currently accepting connections|terminating connection due to administrator command|does not exist in the current database|relation "[^"]+" does not exist/i.test(
    text,
  );
}

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
  if (err instanceof ApiError) {
    return problem(err.code, err.detail, { instance, errors: err.extra.errors, headers: err.extra.headers });
  }
  if (isDatabaseDown(err)) {
    return problem("service_unavailable", "The service is temporarily unavailable; retry shortly.", {
      instance,
      headers: { "retry-after": "5" },
    });
  }
  console.error(`[${new Date().toISOString()}] unexpected error at ${instance}:`, err);
  return problem("internal", "An unexpected error occurred. It has been logged.", { instance });
}

/** Wraps a public API handler (see module doc). */
export function publicRoute<P extends z.ZodType<{ organization: string; environment: string; api: string }>>(
  opts: TPublicRouteOptions<P>,
  handler: (args: TPublicHandlerArgs<z.infer<P>>) => Promise<Response>,
) {
  return async (req: Request, ctx: TRouteContext): Promise<Response> => {
    const instance = new URL(req.url).pathname;
    let limitHeaders: Record<string, string> = {};
    try {
      const parsed = opts.params.safeParse(await ctx.params);
      if (!parsed.success) throw new ApiError("not_found", "No such resource.");
      const params = parsed.data as z.infer<P>;
      const caller = await resolveCaller(params, req.headers.get("x-api-key"));
      const limit = await consumeRateLimit(caller.keyId, caller.workspaceId, caller.plan.rateLimitPerMinute);
      limitHeaders = rateLimitHeaders(limit);
      if (!isAllowed(limit)) {
        throw new ApiError("rate_limited", `This API key may make ${limit.limit} calls per minute to APIs of this workspace; retry after the time in Retry-After.`, {
          headers: limitHeaders,
        });
      }
      if (opts.requiresWorker && !(await workerAlive())) {
        throw new ApiError("service_unavailable", "No worker is available to run flows right now; retry shortly. Reading runs and results still works.", {
          headers: { "retry-after": "5" },
        });
      }
      const res = await handler({ req, params, caller });
      if (res.status >= 200 && res.status < 300 && opts.metering !== "handler") {
        await addUsage(caller.workspaceId, { apiRequests: 1 });
      }
      return withHeaders(res, limitHeaders);
    } catch (err) {
      return withHeaders(errorResponse(err, instance), limitHeaders);
    }
  };
}
