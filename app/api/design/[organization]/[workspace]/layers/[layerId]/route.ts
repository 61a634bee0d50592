import { z } from "zod";
import { workspaceRoute } from "@/lib/auth/session-route";
import { deleteLayer } from "@/lib/layers/delete-layer";
import { renameLayer } from "@/lib/layers/rename-layer";

export const dynamic = "force-dynamic";

// PATCH /api/design/{organization}/{workspace}/layers/{layerId} - rename the layer (body: {"name"}); its id stays
export const PATCH = workspaceRoute({ body: z.object({ name: z.string() }) }, async ({ scope, params, body }) =>
  Response.json(await renameLayer(scope.designer, params.layerId!, body.name)),
);

// DELETE /api/design/{organization}/{workspace}/layers/{layerId} - delete the layer, its readable-layer rows and its file (409 while published APIs may read it)
export const DELETE = workspaceRoute({}, async ({ scope, params }) => {
  await deleteLayer(scope.designer, params.layerId!);
  return new Response(null, { status: 204 });
});
