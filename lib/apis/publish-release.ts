/**
 * Publishing a Flow API into an environment: a new release (numbered per API and
 * environment) pins exactly the chosen flow version, and the environment serves it from
 * then on (`environment_api`). The API becomes `published` and remembers the version as its
 * selected one. Earlier releases stay as history. A trigger on `release` and
 * `environment_api` empties every process's caller cache, so the next call runs the new
 * version.
 *
 * Refused while the source flow is in the trash or deleted (lib/apis/source-label.ts), and,
 * where the API is "Available to AI assistants" in that environment, for a flow version whose
 * input and parameter names collide as one tool's arguments (lib/flows/ai-tool-collisions.ts).
 *
 * @throws AppError `not_found` (API not in the workspace, environment not of the
 *   organization), `validation_failed` (`/flowVersionId` not a version of the API's flow; an
 *   AI tool name collision, named by JSON Pointer into the flow version),
 *   `conflict` (source in trash / needs a source, with the reason).
 */
import "server-only";
import { db, type TTx } from "@/lib/db";
import { AppError, validationError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { sourceStatus } from "@/lib/apis/source-label";
import { assertAiToolCompatible } from "@/lib/flows/ai-tool-collisions";
import { ZFlowVersion } from "@/lib/flows/definition";

export interface TPublishInput {
  flowApiId: string;
  environmentId: string;
  flowVersionId: string;
}

/**
 * The workspace's live Flow API (with `include`), its row locked until `tx` ends: every change to an API locks it first,
 * so two never interleave (release numbers never collide). AppError `not_found` when there is none.
 */
export async function lockFlowApi<I extends Prisma.FlowApiInclude = object>(tx: TTx, workspaceId: string, flowApiId: string, include?: I) {
  await tx.$queryRaw`SELECT id FROM flow_api WHERE id = ${flowApiId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR UPDATE`;
  const api = await tx.flowApi.findFirst({ where: { id: flowApiId, workspaceId, deletedAt: null }, include });
  if (!api) throw new AppError("not_found", "No such API in this workspace.");
  return api as Prisma.FlowApiGetPayload<{ include: I }>;
}

export async function publishRelease(
  scope: { organizationId: string; workspaceId: string },
  input: TPublishInput,
): Promise<{ releaseId: string; number: number; flowVersion: number }> {
  return db.$transaction(async (tx) => {
    const api = await lockFlowApi(tx, scope.workspaceId, input.flowApiId, { flow: true });
    const source = sourceStatus(api.flow);
    if (source.publishBlockedReason) throw new AppError("conflict", source.publishBlockedReason);
    const environment = await tx.environment.findFirst({ where: { id: input.environmentId, organizationId: scope.organizationId } });
    if (!environment) throw new AppError("not_found", "No such environment in this organization.");
    const version = await tx.flowVersion.findFirst({ where: { id: input.flowVersionId, flowId: api.flowId! } });
    if (!version) throw validationError([{ field: "/flowVersionId", code: "invalid_value", message: "Choose a version of this API's flow." }]);
    const serving = await tx.environmentApi.findUnique({ where: { environmentId_flowApiId: { environmentId: environment.id, flowApiId: api.id } } });
    if (serving?.aiAccess) assertAiToolCompatible(ZFlowVersion.parse(version.definition));
    const last = await tx.release.findFirst({ where: { flowApiId: api.id, environmentId: environment.id }, orderBy: { number: "desc" } });
    const release = await tx.release.create({
      data: { flowApiId: api.id, environmentId: environment.id, flowVersionId: version.id, number: (last?.number ?? 0) + 1 },
    });
    await tx.environmentApi.upsert({
      where: { environmentId_flowApiId: { environmentId: environment.id, flowApiId: api.id } },
      create: { environmentId: environment.id, flowApiId: api.id, releaseId: release.id },
      update: { releaseId: release.id },
    });
    await tx.flowApi.update({ where: { id: api.id }, data: { status: "published", selectedFlowVersionId: version.id } });
    return { releaseId: release.id, number: release.number, flowVersion: version.version };
  });
}
