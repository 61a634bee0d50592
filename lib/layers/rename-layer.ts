/**
 * Renaming a workspace layer: its display name (1 to 200 characters, trimmed) changes; its id,
 * which requests send as `{"layer_id": ...}`, stays, so nothing that names it breaks.
 *
 * @returns the layer's id and new name.
 * @throws AppError `validation_failed` on `/name`, `not_found` (no such layer in the workspace).
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError, assertStorable, validationError } from "@/lib/errors";

export const MAX_LAYER_NAME = 200;

export async function renameLayer(scope: { workspaceId: string }, layerId: string, name: string): Promise<{ id: string; name: string }> {
  assertStorable(name, ["name"]);
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > MAX_LAYER_NAME)
    throw validationError([{ field: "/name", code: "invalid_value", message: `A layer needs a name of 1 to ${MAX_LAYER_NAME} characters.` }]);
  const updated = await db.layer.updateMany({ where: { workspaceId: scope.workspaceId, id: layerId }, data: { name: trimmed } });
  if (updated.count === 0) throw new AppError("not_found", "No such layer in this workspace.");
  return { id: layerId, name: trimmed };
}
