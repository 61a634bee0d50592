/**
 * The route wrapper of the OGC API - Processes door (`/public/ogc/{organization}/{environment}`),
 * on the HTTP door's skeleton (`doorRoute`, lib/http/public-route.ts: path params, CORS and
 * `RateLimit` header fields); each route exports the HTTP door's `otherMethods`:
 * - resolves the caller by what the route needs (`caller`): `none` (landing page, conformance,
 *   API definition: no key; 404 for an organization or environment that does not exist), `environment` (the key's processes: lib/serving/resolve-ogc-caller.ts),
 *   `process` (one API, resolved exactly as the HTTP door resolves it), `job` (the API of one of
 *   the consumer's runs); every keyed call runs under the key-call policy (`withKeyCall`: quota,
 *   worker check, metering, call log). A call that names no API (the process list, the job list)
 *   spends the quota of, and is metered to, the workspace of the key's first granted API (by
 *   slug); a key granted none is refused (403);
 * - parses the query and JSON body by the route's zod schemas;
 * - answers errors as OGC exceptions (lib/ogc/exception.ts): a missing process or job with the
 *   standard's exception types, everything else with the service's problem types.
 */
import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { env } from "@/lib/env";
import { ogcException, type TOgcExceptionKind } from "@/lib/ogc/exception";
import { ogcBasePath } from "@/lib/ogc/conformance";
import { doorRoute, inQueryPointers, readInput, ZApiPath, type TInput, type TInputSchemas, type TNoQuery } from "@/lib/http/public-route";
import { publicOrigin } from "@/lib/http/request-origin";
import { environmentExists } from "@/lib/keys/cors-origins";
import { resolveKeyCaller, resolveKeyCallerDeferred } from "@/lib/keys/resolve-key-caller";
import type { TKeyCaller } from "@/lib/keys/served-apis";
import { findRunApiId } from "@/lib/runs/find-run-api";
import { asAppError, withKeyCall } from "@/lib/serving/key-call";
import { resolveOgcCaller, type TOgcCaller } from "@/lib/serving/resolve-ogc-caller";

export const ZOgcProcessPath = ZApiPath;
export const ZOgcPath = ZApiPath.omit({ api: true });
export const ZOgcJobPath = ZOgcPath.extend({ jobId: z.string().max(64) });

type TOgcPath = z.infer<typeof ZOgcPath>;

/** Where the door is: the request's public origin and the door's absolute base URL. */
export interface TOgcPlace {
  origin: string;
  base: string;
}

type TCallers = {
  none: Record<string, never>;
  environment: { ogc: TOgcCaller };
  process: { caller: TKeyCaller };
  job: { caller: TKeyCaller };
};

/** Wraps an OGC door handler (see module doc). */
export function ogcRoute<M extends keyof TCallers, P extends z.ZodType<TOgcPath>, Q extends z.ZodObject = TNoQuery, B extends z.ZodType = z.ZodUndefined>(
  opts: TInputSchemas<Q, B> & { params: P; caller: M; requiresWorker?: boolean; metered?: "policy" | "call"; notFound?: TOgcExceptionKind },
  handler: (args: TInput<Q, B> & { params: z.output<P>; place: TOgcPlace } & TCallers[M]) => Promise<Response>,
) {
  return doorRoute(
    opts.params,
    async (req, p, onQuota) => {
      const params = p as z.output<P> & Record<string, string>;
      const origin = publicOrigin(req.headers, new URL(req.url).origin, env().PUBLIC_BASE_URL).origin;
      const place = { origin, base: origin + ogcBasePath(params) };
      if (opts.caller === "none") {
        // keyless documents (landing page, conformance, API definition) of an environment that exists only
        if (!(await environmentExists(params.organization, params.environment))) throw new AppError("not_found", "No such environment.");
        return handler({ ...(await readInput(req, opts)), params, place } as never);
      }
      const key = req.headers.get("x-api-key");
      const path = { organization: params.organization, environment: params.environment };
      let ogc: TOgcCaller | null = null;
      const resolve = async () => {
        if (opts.caller === "process") return resolveKeyCallerDeferred({ ...path, api: params.api! }, key);
        ogc = await resolveOgcCaller(path, key);
        if (opts.caller === "job") {
          const apiId = await findRunApiId(ogc.consumerId, ogc.environmentId, params.jobId!);
          const api = ogc.apis.find((a) => a.scope.flowApiId === apiId);
          if (!api) throw new AppError("not_found", "No such job exists for your API key.");
          return { value: api as TKeyCaller, fresh: true, authVersion: 0n };
        }
        const first = ogc.apis[0];
        if (!first) throw new AppError("forbidden", "Your key's consumer has no access to any API of this environment.");
        return { value: { ...first, path: { ...first.path, api: "" } } as TKeyCaller, fresh: true, authVersion: 0n };
      };
      return withKeyCall(
        {
          door: "http",
          at: { ...path, api: (params.api as string | undefined) ?? "", consumerId: null },
          resolve,
          reload: opts.caller === "process" ? () => resolveKeyCaller({ ...path, api: params.api! }, key) : undefined,
          requiresWorker: opts.requiresWorker,
          metered: opts.metered,
          onQuota,
        },
        async (caller) => handler({ ...(await readInput(req, opts)), params, place, ...(opts.caller === "environment" ? { ogc: ogc! } : { caller }) } as never),
      );
    },
    (err, instance) => {
      const known = asAppError(err, `at ${instance}`);
      const kind = known.code === "not_found" ? opts.notFound : undefined;
      return ogcException(known.code, known.detail, {
        kind,
        instance,
        errors: inQueryPointers(known.errors, opts.query),
        retryAfterSeconds: known.retryAfterSeconds,
      });
    },
  );
}
