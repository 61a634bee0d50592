import { workspaceRoute } from "@/lib/auth/session-route";
import { layerUsage } from "@/lib/layers/layer-usage";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/layers/{layerId}/usage - what reads the layer (environments, published APIs), asked before replacing it
export const GET = workspaceRoute({}, async ({ scope, params }) => Response.json(await layerUsage(scope.designer, params.layerId!)));
