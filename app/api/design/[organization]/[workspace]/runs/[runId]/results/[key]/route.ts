import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { fileResponse } from "@/lib/http/file-response";
import { getResultFile } from "@/lib/runs/get-result-file";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/runs/{runId}/results/{key}?format= - download a Try-it result file (Range supported)
export const GET = sessionRoute(async ({ req, params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  const file = await getResultFile(scope.designer, params.runId!, params.key!, new URL(req.url).searchParams.get("format"));
  return fileResponse(req, file, "private, no-cache");
});
