import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { layerPreview } from "@/lib/layers/layer-preview";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/layers/{layerId}/preview - a sample of the layer (features as GeoJSON, or rows)
export const GET = sessionRoute(async ({ params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  return Response.json(await layerPreview(scope.designer, params.layerId!));
});
