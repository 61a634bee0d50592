/**
 * The layers an environment may read (callers name them as `{"layer_id": ...}`): list the
 * readable ones and the other layers of the organization's workspaces that could be added,
 * add one, remove one. A removed layer is refused (422 `unknown_layer`) from the next call on.
 * Errors: `not_found` for a layer outside the organization.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export interface TConsoleLayer {
  id: string;
  name: string;
  kind: "features" | "table";
  itemCount: number;
  workspaceName: string;
  readable: boolean;
}

export async function listEnvironmentLayers(scope: TEnvironmentRef): Promise<TConsoleLayer[]> {
  const layers = await db.layer.findMany({
    where: { workspace: { organizationId: scope.organizationId } },
    select: {
      id: true,
      name: true,
      kind: true,
      itemCount: true,
      workspace: { select: { name: true } },
      environments: { where: { environmentId: scope.environmentId } },
    },
    orderBy: { name: "asc" },
  });
  return layers.map((l) => ({
    id: l.id,
    name: l.name,
    kind: l.kind,
    itemCount: l.itemCount,
    workspaceName: l.workspace.name,
    readable: l.environments.length > 0,
  }));
}

export async function setLayerReadable(scope: TEnvironmentRef, input: { layerId: string; readable: boolean }): Promise<void> {
  const layer = await db.layer.findFirst({ where: { id: input.layerId, workspace: { organizationId: scope.organizationId } }, select: { id: true } });
  if (!layer) throw new AppError("not_found", "No such layer in this organization.");
  if (input.readable) {
    await db.environmentLayer.upsert({
      where: { environmentId_layerId: { environmentId: scope.environmentId, layerId: layer.id } },
      create: { environmentId: scope.environmentId, layerId: layer.id },
      update: {},
    });
  } else {
    await db.environmentLayer.deleteMany({ where: { environmentId: scope.environmentId, layerId: layer.id } });
  }
}
