/**
 * What a designer's Try it runs: a Flow API of the designer's workspace (draft or
 * published) with a version of its flow, `flowVersionId` when given, else the version the
 * API has selected, else the flow's latest. No release: Try it publishes nothing.
 *
 * @throws AppError `not_found` when the API is not in the workspace, or the version is not
 *   of the API's flow; `conflict` when the API has no flow version to run.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { ZFlowVersion } from "@/lib/flows/definition";
import type { TDesignerScope, TRunTarget } from "@/lib/runs/scope";

export async function tryItTarget(scope: TDesignerScope, flowApiId: string, flowVersionId?: string): Promise<TRunTarget> {
  const api = await db.flowApi.findFirst({ where: { id: flowApiId, workspaceId: scope.workspaceId, deletedAt: null } });
  if (!api) throw new AppError("not_found", "No such API in your workspace.");
  const version = flowVersionId
    ? await db.flowVersion.findFirst({ where: { id: flowVersionId, flowId: api.flowId ?? undefined } })
    : api.selectedFlowVersionId
      ? await db.flowVersion.findUnique({ where: { id: api.selectedFlowVersionId } })
      : api.flowId
        ? await db.flowVersion.findFirst({ where: { flowId: api.flowId }, orderBy: { version: "desc" } })
        : null;
  if (!version) {
    if (flowVersionId) throw new AppError("not_found", "No such version of this API's flow.");
    throw new AppError("conflict", "This API has no flow version to try.");
  }
  return {
    workspaceId: api.workspaceId,
    flowApiId: api.id,
    flowVersionId: version.id,
    flowVersionNumber: version.version,
    releaseId: null,
    flow: ZFlowVersion.parse(version.definition),
  };
}
