import { z } from "zod";
import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { validationError } from "@/lib/errors";
import { deleteLayer } from "@/lib/layers/delete-layer";
import { renameLayer } from "@/lib/layers/rename-layer";

export const dynamic = "force-dynamic";

const ZRename = z.object({ name: z.string() });

// PATCH /api/design/{organization}/{workspace}/layers/{layerId} - rename the layer (body: {"name"}); its id stays
export const PATCH = sessionRoute(async ({ req, params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  const body = ZRename.safeParse(await req.json().catch(() => null));
  if (!body.success) throw validationError([{ field: "/name", code: "required", message: 'Send the new name as {"name": "..."}.' }]);
  return Response.json(await renameLayer(scope.designer, params.layerId!, body.data.name));
});

// DELETE /api/design/{organization}/{workspace}/layers/{layerId} - delete the layer, its readable-layer rows and its file (409 while published APIs may read it)
export const DELETE = sessionRoute(async ({ params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  await deleteLayer(scope.designer, params.layerId!);
  return new Response(null, { status: 204 });
});
