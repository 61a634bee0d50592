import { workspaceRoute } from "@/lib/auth/session-route";
import { getLayerImport } from "@/lib/layers/layer-imports";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/layer-imports/{importId} - one layer import: state, bytes and items done, result or problem
export const GET = workspaceRoute({}, async ({ scope, params }) => Response.json(await getLayerImport(scope.designer, params.importId!)));
