import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { layerUsage } from "@/lib/layers/layer-usage";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/layers/{layerId}/usage - what reads the layer (environments, published APIs), asked before replacing it
export const GET = sessionRoute(async ({ params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  return Response.json(await layerUsage(scope.designer, params.layerId!));
});
