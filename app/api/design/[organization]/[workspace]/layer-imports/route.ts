import { workspaceRoute } from "@/lib/auth/session-route";
import { listLayerImports } from "@/lib/layers/layer-imports";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/layer-imports - the workspace's layer imports of the last day, newest first
export const GET = workspaceRoute({}, async ({ scope }) => Response.json(await listLayerImports(scope.designer)));
