import { z } from "zod";
import { otherMethods, publicRoute, ZApiPath } from "@/lib/http/public-route";
import { fileResponse } from "@/lib/http/file-response";
import { getResultFile } from "@/lib/runs/get-result-file";

export const dynamic = "force-dynamic";

const ZParams = ZApiPath.extend({ runId: z.string(), key: z.string().min(1) });
const ZQuery = z.object({ format: z.string().optional() });

// GET /public/api/{organization}/{environment}/{api}/runs/{run_id}/results/{key} - download one result file (Range supported)
export const GET = publicRoute({ params: ZParams, query: ZQuery }, async ({ req, params, query, caller }) =>
  fileResponse(req, await getResultFile(caller.scope, params.runId, params.key, query.format ?? null), "private, max-age=3600"),
);

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZParams, ["GET"]);
