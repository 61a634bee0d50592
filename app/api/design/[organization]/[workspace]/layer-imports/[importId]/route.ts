import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { getLayerImport } from "@/lib/layers/layer-imports";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/layer-imports/{importId} - one layer import: state, bytes and items done, result or problem
export const GET = sessionRoute(async ({ params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  return Response.json(await getLayerImport(scope.designer, params.importId!));
});
