/**
 * Deleting a workspace layer from the design tool: refused while a published release could read
 * it (409 `conflict` naming each API with its release and environment, and the environments that
 * may read the layer: what `layerUsage` says, lib/layers/layer-usage.ts); otherwise the layer row
 * goes, with the rows that let environments read it (`environment_layer`, by the foreign key's
 * cascade), and then its file in the blob store. Files of versions it replaced earlier are
 * swept by the maintenance purge (lib/runs/purge.ts), like those of any replaced layer.
 *
 * A Try-it run already working on the layer keeps its open file only as long as the blob store
 * serves it; a new run naming the id gets the answer of an id nobody uses.
 *
 * @throws AppError `not_found` (no such layer in the workspace), `conflict` (in use).
 */
import "server-only";
import { blobStore } from "@/lib/blobs";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { layerUsage } from "@/lib/layers/layer-usage";

export async function deleteLayer(scope: { workspaceId: string }, layerId: string): Promise<void> {
  const usage = await layerUsage(scope, layerId);
  if (!usage.layer) throw new AppError("not_found", "No such layer in this workspace.");
  if (usage.apis.length > 0) {
    // "cities-in-area (release 3 in production), nearby-cities (release 1 in staging)"
    const apis = usage.apis.map((a) => `${a.slug} (release ${a.release} in ${a.environment})`).join(", ");
    const environments = usage.environments.map((e) => e.slug).join(", ");
    throw new AppError(
      "conflict",
      `Layer "${layerId}" cannot be deleted while published APIs may read it: ${apis}. ` +
        `Environments that may read it: ${environments}. An admin first removes it from the readable layers of ${usage.environments.length === 1 ? "that environment" : "those environments"} in the console (environment → APIs → Readable layers).`,
    );
  }
  const key = { workspaceId: scope.workspaceId, id: layerId };
  const deleted = await db.layer.delete({ where: { workspaceId_id: key }, select: { fileKey: true } }).catch((err: unknown) => {
    if ((err as { code?: string }).code === "P2025") return null; // deleted at the same time
    throw err;
  });
  if (!deleted) throw new AppError("not_found", "No such layer in this workspace.");
  if (deleted.fileKey) await blobStore().delete(deleted.fileKey);
}
