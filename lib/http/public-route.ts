/**
 * The route wrappers of the HTTP doors. `publicRoute` serves the public API on `doorRoute`:
 * - parses the path params with zod (a bad slug is a 404, like a missing API),
 * - runs the call under the key-call policy (lib/serving/key-call.ts; the key resolved with
 *   lib/keys/resolve-key-caller.ts), writing the quota as `RateLimit-Policy` / `RateLimit`
 *   header fields (lib/rate-limit/headers.ts) on every answer to an authenticated call,
 * - parses the query and the JSON body by the route's zod schemas (`readInput`), after the key
 *   is accepted, so that a handler only calls the domain and answers,
 * - maps AppError to RFC 9457 problems (`errorResponse`: unexpected errors are logged and
 *   answered 500, database outages 503 with `Retry-After`), naming a faulty query parameter
 *   `/query/<name>` (the domain and the schemas name the logical field, `/<name>`),
 * - adds the CORS header fields for a browser origin the environment allows (lib/http/cors.ts).
 *
 * `otherMethods` answers the methods a route does not serve: `OPTIONS` (a CORS preflight, or
 * plain `Allow`) and 405 problems with `Allow` (RFC 9110 section 15.5.6) for the rest.
 */
import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/errors/zod-issues";
import { problem, type TProblemDoor } from "@/lib/http/problem";
import { readJsonBody } from "@/lib/http/read-json-body";
import { resolveKeyCaller, resolveKeyCallerDeferred } from "@/lib/keys/resolve-key-caller";
import type { TKeyCaller } from "@/lib/keys/served-apis";
import type { TApiPath } from "@/lib/runs/scope";
import { rateLimitHeaders, type TRateLimitState } from "@/lib/rate-limit/headers";
import { allowHeader, corsHeaders, preflight } from "@/lib/http/cors";
import { asAppError, withKeyCall } from "@/lib/serving/key-call";

const ZSlug = z.string().regex(/^[a-z0-9-]{1,64}$/);
export const ZApiPath = z.object({ organization: ZSlug, environment: ZSlug, api: ZSlug });

/** The query and body schemas of a route; the body is read only when a schema is given. */
export interface TInputSchemas<Q extends z.ZodObject, B extends z.ZodType> {
  query?: Q;
  body?: B;
}

/** The query schema of a route that reads none. */
export type TNoQuery = z.ZodObject<Record<string, never>>;

export interface TInput<Q extends z.ZodObject, B extends z.ZodType> {
  req: Request;
  query: z.output<Q>;
  body: z.output<B>;
}

export type TRouteContext = { params: Promise<Record<string, string | string[]>> };

/** Copies extra headers onto a response (rebuilding it if its headers are immutable). */
export function withHeaders(res: Response, extra: Record<string, string>): Response {
  try {
    for (const [k, v] of Object.entries(extra)) if (!res.headers.has(k)) res.headers.set(k, v);
    return res;
  } catch {
    const headers = new Headers(res.headers);
    for (const [k, v] of Object.entries(extra)) if (!headers.has(k)) headers.set(k, v);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

/**
 * The query string and JSON body of `req` by schema (the body read with lib/http/read-json-body.ts);
 * a fault names the logical field (`/limit`, `/name`).
 */
/**
 * The query string as an object for a route's query schema: a parameter given once is its
 * string, one given several times the array of its values in order (an OpenAPI `form`,
 * `explode: true` array, such as the OGC job list's `processID` and `status`); a schema that
 * takes one string refuses a repeated parameter, naming it, rather than keep one of its values.
 */
function queryObject(url: URL): Record<string, string | string[]> {
  const params = url.searchParams;
  return Object.fromEntries(
    [...new Set(params.keys())].map((key) => {
      const all = params.getAll(key);
      return [key, all.length === 1 ? all[0]! : all];
    }),
  );
}

export async function readInput<Q extends z.ZodObject, B extends z.ZodType>(req: Request, schemas: TInputSchemas<Q, B>): Promise<TInput<Q, B>> {
  const query = schemas.query ? parseOrThrow(schemas.query, queryObject(new URL(req.url))) : {};
  const body = schemas.body ? parseOrThrow(schemas.body, await readJsonBody(req)) : undefined;
  return { req, query: query as z.output<Q>, body: body as z.output<B> };
}

/** `errors` with the fields of the query schema `query` named `/query/<name>`, as every door names them. */
export function inQueryPointers<E extends { field: string }>(errors: E[] | undefined, query: z.ZodObject | undefined): E[] | undefined {
  const inQuery = (field: string) => query !== undefined && Object.hasOwn(query.shape, field.split("/")[1] ?? "");
  return errors?.map((e) => (inQuery(e.field) ? { ...e, field: `/query${e.field}` } : e));
}

/**
 * Turns any thrown value into a problem response as `door` answers it (lib/http/problem.ts).
 * `query`: the route's query schema, whose fields the errors name `/query/<name>`.
 */
export function errorResponse(err: unknown, instance: string, door: TProblemDoor = "key", query?: z.ZodObject): Response {
  const known = asAppError(err, `at ${instance}`);
  const errors = inQueryPointers(known.errors, query);
  return problem(known.code, known.detail, { instance, errors, retryAfterSeconds: known.retryAfterSeconds, door });
}

/**
 * The skeleton of both doors (`publicRoute`, lib/ogc/ogc-route.ts): path params by `schema`, then
 * `serve`; every answer, `fail`'s included, carries the CORS and (after `onQuota`) RateLimit fields.
 */
export function doorRoute<P extends z.ZodType<Pick<TApiPath, "organization" | "environment">>>(
  schema: P,
  serve: (req: Request, params: z.output<P>, onQuota: (quota: TRateLimitState) => void) => Promise<Response>,
  fail: (err: unknown, instance: string) => Response,
) {
  return async (req: Request, ctx: TRouteContext): Promise<Response> => {
    let headers: Record<string, string> = {};
    try {
      const parsed = schema.safeParse(await ctx.params);
      if (!parsed.success) throw new AppError("not_found", "No such resource.");
      headers = await corsHeaders(req.headers.get("origin"), parsed.data);
      const res = await serve(req, parsed.data as z.output<P>, (quota) => (headers = { ...headers, ...rateLimitHeaders(quota) }));
      return withHeaders(res, headers);
    } catch (err) {
      return withHeaders(fail(err, new URL(req.url).pathname), headers);
    }
  };
}

/** Wraps a public API handler (see module doc). */
export function publicRoute<P extends z.ZodType<TApiPath>, Q extends z.ZodObject = TNoQuery, B extends z.ZodType = z.ZodUndefined>(
  opts: TInputSchemas<Q, B> & { params: P; requiresWorker?: boolean; metered?: "policy" | "call" },
  handler: (args: TInput<Q, B> & { params: z.output<P>; caller: TKeyCaller }) => Promise<Response>,
) {
  return doorRoute(
    opts.params,
    (req, params, onQuota) => {
      const key = req.headers.get("x-api-key");
      return withKeyCall(
        {
          door: "http",
          at: { organization: params.organization, environment: params.environment, api: params.api, consumerId: null },
          resolve: () => resolveKeyCallerDeferred(params, key),
          reload: () => resolveKeyCaller(params, key),
          requiresWorker: opts.requiresWorker,
          metered: opts.metered,
          onQuota,
        },
        async (caller) => handler({ ...(await readInput(req, opts)), params, caller }),
      );
    },
    (err, instance) => errorResponse(err, instance, "key", opts.query),
  );
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
  handlers.OPTIONS = async (req, ctx) => preflight(req, await pathOf(ctx), served).catch((err) => errorResponse(err, new URL(req.url).pathname));
  return handlers;
}
