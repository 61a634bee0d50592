/**
 * The one wrapper every public route handler uses. It
 * - parses the path params with zod (a bad slug is a 404, like a missing API),
 * - authenticates the key and resolves the API (lib/api/resolve-caller.ts),
 * - maps ApiError to RFC 9457 problem responses and hides unexpected errors (500, logged),
 *   answering 503 when the database cannot be reached,
 * - meters every 2xx answer as one API request, unless the handler metered it itself
 *   inside its own transaction (POST /runs).
 */
import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { problem } from "@/lib/api/problem";
import { resolveCaller, type TCaller } from "@/lib/api/resolve-caller";
import { addUsage } from "@/lib/metering/usage";

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
}

type TRouteContext = { params: Promise<Record<string, string | string[]>> };

/** True for errors that mean "the database is not reachable" rather than a bug. */
export function isDatabaseDown(err: unknown): boolean {
  const text = `${(err as { code?: string })?.code ?? ""} ${(err as Error)?.message ?? ""}`;
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|57P01|57P03|53300|Can't reach database|Connection terminated|connect ECONN|timeout exceeded when trying to connect/i.test(text);
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
    try {
      const parsed = opts.params.safeParse(await ctx.params);
      if (!parsed.success) throw new ApiError("not_found", "No such resource.");
      const params = parsed.data as z.infer<P>;
      const caller = await resolveCaller(params, req.headers.get("x-api-key"));
      const res = await handler({ req, params, caller });
      if (res.status >= 200 && res.status < 300 && opts.metering !== "handler") {
        await addUsage(caller.workspaceId, { apiRequests: 1 });
      }
      return res;
    } catch (err) {
      return errorResponse(err, instance);
    }
  };
}
