/**
 * The layers an environment may read (callers name them as `{"layer_id": ...}`): list the
 * readable ones and the other layers of the organization's workspaces that could be added,
 * add one, remove one. Layer ids are unique within a workspace only, so a layer is named by
 * `(workspaceId, layerId)`; a call resolves its `layer_id` among the readable layers of the
 * called API's workspace. A removed layer is refused (422 `unknown_layer`) from the next call on.
 * Errors: `not_found` for a layer outside the organization (whether or not another organization
 * has a layer of that id).
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { TEnvironmentRef } from "@/lib/runs/scope";
import { compareNames } from "@/lib/utils";

/** The organization's layers by name (case-insensitive, `compareNames`), workspace name and id, each with whether this environment may read it. */
export async function listEnvironmentLayers(scope: TEnvironmentRef) {
  const layers = await db.layer.findMany({
    where: { workspace: { organizationId: scope.organizationId } },
    select: {
      id: true,
      workspaceId: true,
      name: true,
      kind: true,
      itemCount: true,
      workspace: { select: { name: true } },
      environments: { where: { environmentId: scope.environmentId } },
    },
  });
  layers.sort((a, b) => compareNames(a.name, b.name) || compareNames(a.workspace.name, b.workspace.name) || compareNames(a.id, b.id));
  return layers.map(({ workspace, environments, ...l }) => ({ ...l, workspaceName: workspace.name, readable: environments.length > 0 }));
}

export type TConsoleLayer = Awaited<ReturnType<typeof listEnvironmentLayers>>[number];

export async function setLayerReadable(scope: TEnvironmentRef, input: { workspaceId: string; layerId: string; readable: boolean }): Promise<void> {
  const layer = await db.layer.findFirst({
    where: { workspaceId: input.workspaceId, id: input.layerId, workspace: { organizationId: scope.organizationId } },
    select: { id: true, workspaceId: true },
  });
  if (!layer) throw new AppError("not_found", "No such layer in this organization.");
  const key = { environmentId: scope.environmentId, workspaceId: layer.workspaceId, layerId: layer.id };
  if (input.readable) {
    await db.environmentLayer.upsert({ where: { environmentId_workspaceId_layerId: key }, create: key, update: {} });
  } else {
    await db.environmentLayer.deleteMany({ where: key });
  }
}
