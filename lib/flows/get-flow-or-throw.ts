/**
 * One flow of a workspace with all its versions (documents included, newest first) and the
 * Flow APIs that use it. A permanently deleted flow, or one of another workspace, is
 * AppError `not_found`.
 */
import "server-only";
import { db } from "@/lib/db";
import { isUuid } from "@/lib/database/uuid";
import { AppError } from "@/lib/errors";

export async function getFlowOrThrow(scope: { workspaceId: string }, flowId: string) {
  const flow = isUuid(flowId)
    ? await db.flow.findFirst({
        where: { id: flowId, workspaceId: scope.workspaceId, state: { not: "deleted" } },
        include: {
          versions: { orderBy: { version: "desc" } },
          flowApis: { where: { deletedAt: null }, select: { id: true, slug: true, name: true, status: true }, orderBy: { name: "asc" } },
        },
      })
    : null;
  if (!flow) throw new AppError("not_found", "No such flow in this workspace.");
  return flow;
}
