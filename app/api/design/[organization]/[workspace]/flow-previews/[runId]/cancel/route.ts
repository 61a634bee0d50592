import { workspaceRoute } from "@/lib/auth/session-route";
import { cancelFlowPreview, getFlowPreview } from "@/lib/runs/preview-run";

export const dynamic = "force-dynamic";

// POST /api/design/{organization}/{workspace}/flow-previews/{runId}/cancel - stop one of the designer's previews
export const POST = workspaceRoute({}, async ({ scope, params }) => {
  await cancelFlowPreview(scope.designer, params.runId!);
  return Response.json(await getFlowPreview(scope.designer, params.runId!, { base: scope.base }));
});
