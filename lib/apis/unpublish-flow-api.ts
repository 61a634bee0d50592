/**
 * Unpublishing a Flow API from one environment: the environment stops serving it (its
 * `environment_api` row goes, with the "Available to AI assistants" switch there), so callers
 * get 404 from the public address and its docs page, and AI clients no longer see its tool.
 * Releases and runs stay as history; publishing again starts the next release number. When
 * no environment serves the API any more it is a draft again (and may be deleted).
 *
 * A trigger on `environment_api` empties every process's caller cache, so the next call
 * already sees it gone.
 *
 * @throws AppError `not_found` (no such API in the workspace, or environment of the
 *   organization), `conflict` when the environment does not serve it.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { lockFlowApi } from "@/lib/apis/publish-release";

export interface TUnpublishInput {
  flowApiId: string;
  environmentId: string;
}

export async function unpublishFlowApi(
  scope: { organizationId: string; workspaceId: string },
  input: TUnpublishInput,
): Promise<{ status: "draft" | "published" }> {
  return db.$transaction(async (tx) => {
    const api = await lockFlowApi(tx, scope.workspaceId, input.flowApiId);
    const environment = await tx.environment.findFirst({ where: { id: input.environmentId, organizationId: scope.organizationId } });
    if (!environment) throw new AppError("not_found", "No such environment in this organization.");
    const { count } = await tx.environmentApi.deleteMany({ where: { environmentId: environment.id, flowApiId: api.id } });
    if (count === 0) throw new AppError("conflict", `"${api.name}" is not published in ${environment.name}.`);
    const servedElsewhere = await tx.environmentApi.count({ where: { flowApiId: api.id } });
    const status = servedElsewhere > 0 ? "published" : "draft";
    if (status !== api.status) await tx.flowApi.update({ where: { id: api.id }, data: { status } });
    return { status };
  });
}
