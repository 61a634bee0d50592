/**
 * A flow's way out, in three steps, none of which touches the serving side (releases pin
 * flow versions, which are kept):
 *
 * - `trashFlow`: active → trashed. APIs using it show "Source in trash" and cannot be
 *   published until it is restored.
 * - `restoreFlow`: trashed → active.
 * - `deleteFlowPermanently`: trashed → deleted (only from the trash). The flow disappears
 *   from the design tool; its APIs show "Needs a source"; published releases keep serving.
 *
 * @throws AppError `not_found` (not in the workspace, or already deleted), `conflict` (not in
 *   the state the move starts from).
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";

type TState = "active" | "trashed" | "deleted";

async function move(scope: { workspaceId: string }, flowId: string, from: TState, to: TState, refusal: string): Promise<void> {
  const now = new Date();
  const { count } = await db.flow.updateMany({
    where: { id: flowId, workspaceId: scope.workspaceId, state: from },
    data: { state: to, ...(to === "trashed" ? { trashedAt: now } : to === "active" ? { trashedAt: null } : { deletedAt: now }) },
  });
  if (count === 1) return;
  const flow = await db.flow.findFirst({ where: { id: flowId, workspaceId: scope.workspaceId, state: { not: "deleted" } }, select: { id: true } });
  if (!flow) throw new AppError("not_found", "No such flow in this workspace.");
  throw new AppError("conflict", refusal);
}

export function trashFlow(scope: { workspaceId: string }, flowId: string): Promise<void> {
  return move(scope, flowId, "active", "trashed", "This flow is already in the trash.");
}

export function restoreFlow(scope: { workspaceId: string }, flowId: string): Promise<void> {
  return move(scope, flowId, "trashed", "active", "Only a flow in the trash can be restored.");
}

export function deleteFlowPermanently(scope: { workspaceId: string }, flowId: string): Promise<void> {
  return move(scope, flowId, "trashed", "deleted", "Move the flow to the trash before deleting it permanently.");
}
