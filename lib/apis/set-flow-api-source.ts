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
import { AppError } from "@/lib/errors";
import { sourceStatus } from "@/lib/apis/source-label";
import { lockFlowApi } from "@/lib/apis/publish-release";
import { latestFlowVersion } from "@/lib/apis/create-flow-api";

export async function setFlowApiSource(
  scope: { workspaceId: string },
  input: { flowApiId: string; flowId: string },
): Promise<{ flowId: string; flowVersion: number }> {
  return db.$transaction(async (tx) => {
    const api = await lockFlowApi(tx, scope.workspaceId, input.flowApiId, { flow: true });
    if (sourceStatus(api.flow).label !== "Needs a source") {
      throw new AppError(
        "conflict",
        `The source flow "${api.flow!.name}" still exists: only an API whose source flow was deleted permanently can be pointed at another flow.`,
      );
    }
    const latest = await latestFlowVersion(tx, scope.workspaceId, input.flowId);
    await tx.flowApi.update({ where: { id: api.id }, data: { flowId: input.flowId, selectedFlowVersionId: latest.id } });
    return { flowId: input.flowId, flowVersion: latest.version };
  });
}
