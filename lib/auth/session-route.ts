/**
 * Route handlers for the browser (design tool and console reads). `sessionRoute` checks the
 * session first (`auth`: `requireUser` / `requireWorkspace` ... of lib/auth/session.ts, the same
 * database check as pages and server actions), then parses the query and the JSON body by the
 * route's zod schemas (lib/http/public-route.ts `readInput`), runs the handler and turns a
 * thrown `AppError` into an RFC 9457 problem as the browser door answers it: a 401 is "Sign-in
 * required" with no API-key challenge, and faulty fields keep their logical pointers (`/name`,
 * `/wait_seconds`), the names of the form fields they belong to. `workspaceRoute` is the
 * design tool's: a designer of the path's workspace.
 *
 *   // GET /api/design/{organization}/{workspace}/layers - the workspace's layers
 *   export const GET = workspaceRoute({}, async ({ scope }) => Response.json(await readableLayersOf({ workspaceId: scope.workspace.id })));
 */
import "server-only";
import type { z } from "zod";
import { errorResponse, readInput, type TInput, type TInputSchemas, type TNoQuery, type TRouteContext } from "@/lib/http/public-route";
import { requireWorkspace, type TWorkspaceScope } from "@/lib/auth/session";

type TParams = Record<string, string>;
type TSessionHandler<S, Q extends z.ZodObject, B extends z.ZodType> = (args: TInput<Q, B> & { params: TParams; scope: S }) => Promise<Response>;

export function sessionRoute<S, Q extends z.ZodObject = TNoQuery, B extends z.ZodType = z.ZodUndefined>(
  opts: TInputSchemas<Q, B> & { auth: (params: TParams) => Promise<S> },
  handler: TSessionHandler<S, Q, B>,
) {
  return async (req: Request, ctx: TRouteContext): Promise<Response> => {
    try {
      const raw = ctx?.params ? await ctx.params : {};
      const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
      const scope = await opts.auth(params);
      const res = await handler({ ...(await readInput(req, opts)), params, scope });
      if (!res.headers.has("cache-control")) res.headers.set("cache-control", "private, no-store");
      return res;
    } catch (err) {
      return errorResponse(err, new URL(req.url).pathname, "session");
    }
  };
}

/** `sessionRoute` for a designer of `{organization}/{workspace}`; `base` is that workspace's `/api/design/...` path. */
export function workspaceRoute<Q extends z.ZodObject = TNoQuery, B extends z.ZodType = z.ZodUndefined>(
  opts: TInputSchemas<Q, B>,
  handler: TSessionHandler<TWorkspaceScope & { base: string }, Q, B>,
) {
  const auth = async (p: TParams) => {
    const scope = await requireWorkspace({ organization: p.organization!, workspace: p.workspace! });
    return { ...scope, base: `/api/design/${scope.organizationSlug}/${scope.workspace.slug}` };
  };
  return sessionRoute({ ...opts, auth }, handler);
}
