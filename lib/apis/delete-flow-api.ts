/**
 * Deleting a Flow API that no environment serves (a draft never published, or one unpublished
 * everywhere; lib/apis/unpublish-flow-api.ts). The API leaves the design tool and no longer
 * counts against the workspace plan's limit (`Plan.maxFlowApis`, lib/apis/create-flow-api.ts),
 * and its slug is free for a new API. Its row stays, marked `deletedAt`, because runs are never
 * deleted: the console's runs and usage still name the API their runs belonged to.
 *
 * @throws AppError `not_found` (no such API in the workspace, or already deleted), `conflict`
 *   while an environment serves it (the message names the environments: unpublish there first).
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { lockFlowApi } from "@/lib/apis/publish-release";

export async function deleteFlowApi(scope: { workspaceId: string }, flowApiId: string): Promise<{ flowApiId: string }> {
  return db.$transaction(async (tx) => {
    const api = await lockFlowApi(tx, scope.workspaceId, flowApiId, { deployments: { include: { environment: { select: { name: true } } } } });
    if (api.deployments.length > 0) {
      const names = api.deployments.map((d) => d.environment.name).sort();
      throw new AppError(
        "conflict",
        `"${api.name}" is published in ${names.join(", ")}: callers still use it there. Unpublish it from ${names.length === 1 ? "that environment" : "each"} first, then delete it.`,
      );
    }
    await tx.flowApi.update({ where: { id: api.id }, data: { deletedAt: new Date() } });
    return { flowApiId: api.id };
  });
}
