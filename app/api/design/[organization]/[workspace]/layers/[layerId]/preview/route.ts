import { workspaceRoute } from "@/lib/auth/session-route";
import { layerPreview } from "@/lib/layers/layer-preview";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/layers/{layerId}/preview - a sample of the layer (features as GeoJSON, or rows)
export const GET = workspaceRoute({}, async ({ scope, params }) => Response.json(await layerPreview(scope.designer, params.layerId!)));
