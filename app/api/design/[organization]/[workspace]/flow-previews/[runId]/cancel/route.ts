import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { cancelFlowPreview, getFlowPreview } from "@/lib/runs/preview-run";

export const dynamic = "force-dynamic";

// POST /api/design/{organization}/{workspace}/flow-previews/{runId}/cancel - stop one of the designer's previews
export const POST = sessionRoute(async ({ params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  await cancelFlowPreview(scope.designer, params.runId!);
  return Response.json(await getFlowPreview(scope.designer, params.runId!, { base: `/api/design/${scope.organizationSlug}/${scope.workspace.slug}` }));
});
