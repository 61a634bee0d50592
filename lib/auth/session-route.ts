/**
 * Route handlers for the browser (design tool and console reads): thin wrappers that run
 * the handler and turn a thrown `AppError` into an RFC 9457 problem, as the public API does
 * (lib/http/public-route.ts), minus the API-key challenge header. The handler itself
 * calls `requireUser` / `requireMember` / `requireWorkspace` / `requireEnvironment`
 * (lib/auth/session.ts) first: the same database check as pages and server actions.
 *
 *   // GET /api/design/{organization}/{workspace}/flows - the workspace's flows
 *   export const GET = sessionRoute(async ({ params }) => {
 *     const scope = await requireWorkspace({ organization: params.organization, workspace: params.workspace });
 *     return Response.json(await listFlows(scope.designer));
 *   });
 */
import "server-only";
import { errorResponse } from "@/lib/http/public-route";

export interface TSessionRouteArgs {
  req: Request;
  params: Record<string, string>;
}

type TRouteContext = { params: Promise<Record<string, string | string[]>> };

export function sessionRoute(handler: (args: TSessionRouteArgs) => Promise<Response>) {
  return async (req: Request, ctx: TRouteContext): Promise<Response> => {
    try {
      const raw = ctx?.params ? await ctx.params : {};
      const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
      const res = await handler({ req, params });
      if (!res.headers.has("cache-control")) res.headers.set("cache-control", "private, no-store");
      return res;
    } catch (err) {
      const res = errorResponse(err, new URL(req.url).pathname);
      res.headers.delete("www-authenticate");
      return res;
    }
  };
}
