import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { listLayerImports } from "@/lib/layers/layer-imports";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/layer-imports - the workspace's layer imports of the last day, newest first
export const GET = sessionRoute(async ({ params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  return Response.json(await listLayerImports(scope.designer));
});
