import { z } from "zod";
import { doorRoute, errorResponse, otherMethods, publicRoute, ZApiPath, type TRouteContext } from "@/lib/http/public-route";
import { fileResponse } from "@/lib/http/file-response";
import { isSignedLinkQuery } from "@/lib/mcp/result-link";
import { serveSignedDownload } from "@/lib/mcp/signed-download";
import { getResultFile } from "@/lib/runs/get-result-file";

export const dynamic = "force-dynamic";

const ZParams = ZApiPath.extend({ runId: z.string(), key: z.string().min(1) });
const ZQuery = z.object({ format: z.string().optional() });

const withKey = publicRoute({ params: ZParams, query: ZQuery }, async ({ req, params, query, caller }) =>
  fileResponse(req, await getResultFile(caller.scope, params.runId, params.key, query.format ?? null), "private, max-age=3600"),
);
const bySignedLink = doorRoute(
  ZParams,
  (req, params) => serveSignedDownload(req, params),
  (err, instance) => errorResponse(err, instance),
);

// GET /public/api/{organization}/{environment}/{api}/runs/{run_id}/results/{key} - download one result file (Range supported), with the key or by a signed link
export const GET = (req: Request, ctx: TRouteContext) => (isSignedLinkQuery(new URL(req.url).searchParams) ? bySignedLink(req, ctx) : withKey(req, ctx));

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZParams, ["GET"]);
