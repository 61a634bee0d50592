import { z } from "zod";
import { workspaceRoute } from "@/lib/auth/session-route";
import { fileResponse } from "@/lib/http/file-response";
import { getResultFile } from "@/lib/runs/get-result-file";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/runs/{runId}/results/{key}?format= - download a Try-it result file (Range supported)
export const GET = workspaceRoute({ query: z.object({ format: z.string().optional() }) }, async ({ req, scope, params, query }) =>
  fileResponse(req, await getResultFile(scope.designer, params.runId!, params.key!, query.format ?? null), "private, no-cache"),
);
