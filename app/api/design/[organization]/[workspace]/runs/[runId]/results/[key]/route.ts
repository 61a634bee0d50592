import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { getResultFile } from "@/lib/runs/get-result-file";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/runs/{runId}/results/{key}?format= - download a Try-it result file
export const GET = sessionRoute(async ({ req, params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  const { file, filename, mediaType, stream } = await getResultFile(scope.designer, params.runId!, params.key!, new URL(req.url).searchParams.get("format"));
  return new Response(stream(), {
    headers: {
      "content-type": mediaType,
      "content-disposition": `attachment; filename="${filename.replace(/["\\\r\n]/g, "_")}"`,
      "content-length": String(file.sizeBytes),
    },
  });
});
