/**
 * Pointing a Flow API whose source flow is gone ("Needs a source", lib/apis/source-label.ts)
 * at another flow of its workspace. The API's next draft uses that flow's latest version (it
 * becomes the selected version, which Try it and Publish start from); what environments serve
 * does not change until the designer publishes again. An API whose flow is still there (active
 * or in the trash) keeps it: restoring from the trash is the way back for the latter.
 *
 * @throws AppError `not_found` (no such API in the workspace), `conflict` (the API's source
 *   flow still exists), `validation_failed` (`/flowId`: not an active flow of the workspace,
 *   or without a saved version).
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError, validationError } from "@/lib/errors";
import { sourceStatus } from "@/lib/apis/source-label";

export async function setFlowApiSource(
  scope: { workspaceId: string },
  input: { flowApiId: string; flowId: string },
): Promise<{ flowId: string; flowVersion: number }> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM flow_api WHERE id = ${input.flowApiId}::uuid AND "workspaceId" = ${scope.workspaceId}::uuid FOR UPDATE`;
    const api = await tx.flowApi.findFirst({ where: { id: input.flowApiId, workspaceId: scope.workspaceId, deletedAt: null }, include: { flow: true } });
    if (!api) throw new AppError("not_found", "No such API in this workspace.");
    if (sourceStatus(api.flow).label !== "Needs a source") {
      throw new AppError(
        "conflict",
        `The source flow "${api.flow!.name}" still exists: only an API whose source flow was deleted permanently can be pointed at another flow.`,
      );
    }
    const flow = await tx.flow.findFirst({
      where: { id: input.flowId, workspaceId: scope.workspaceId, state: "active" },
      include: { versions: { orderBy: { version: "desc" }, take: 1, select: { id: true, version: true } } },
    });
    if (!flow) throw validationError([{ field: "/flowId", code: "invalid_value", message: "Choose an active flow of this workspace." }]);
    const latest = flow.versions[0];
    if (!latest) throw validationError([{ field: "/flowId", code: "invalid_value", message: "This flow has no saved version yet." }]);
    await tx.flowApi.update({ where: { id: api.id }, data: { flowId: flow.id, selectedFlowVersionId: latest.id } });
    return { flowId: flow.id, flowVersion: latest.version };
  });
}
