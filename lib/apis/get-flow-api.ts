/**
 * Everything the API page shows about one Flow API of a workspace:
 * - the API (name, slug, status), its source flow with state, label and why publishing is
 *   blocked, the flow's versions (newest first, with their documents) and the latest one;
 * - per environment of the organization: the serving release (number, pinned flow version,
 *   when published) or nothing (draft there);
 * - `availableVersion`: the flow's latest version when it is newer than what any
 *   environment serves ("Version N available").
 *
 * @throws AppError `not_found` when the API is not in the workspace.
 */
import "server-only";
import { db } from "@/lib/db";
import { isUuid } from "@/lib/database/uuid";
import { AppError } from "@/lib/errors";
import { sourceStatus } from "@/lib/apis/source-label";

export async function getFlowApiOrThrow(scope: { organizationId: string; workspaceId: string }, flowApiId: string) {
  const api = isUuid(flowApiId)
    ? await db.flowApi.findFirst({
        where: { id: flowApiId, workspaceId: scope.workspaceId, deletedAt: null },
        include: {
          flow: { include: { versions: { select: { id: true, version: true, createdAt: true, definition: true }, orderBy: { version: "desc" } } } },
          selectedFlowVersion: { select: { id: true, version: true } },
          deployments: { include: { release: { include: { flowVersion: { select: { id: true, version: true } } } } } },
        },
      })
    : null;
  if (!api) throw new AppError("not_found", "No such API in this workspace.");
  const environments = await db.environment.findMany({ where: { organizationId: scope.organizationId }, orderBy: { slug: "asc" } });
  const source = sourceStatus(api.flow);
  const versions = api.flow?.versions ?? [];
  const latest = versions[0] ?? null;
  const serving = environments.map((e) => {
    const d = api.deployments.find((x) => x.environmentId === e.id);
    return {
      environment: { id: e.id, slug: e.slug, name: e.name },
      release: d
        ? {
            id: d.release.id,
            number: d.release.number,
            publishedAt: d.release.publishedAt,
            flowVersion: d.release.flowVersion.version,
            flowVersionId: d.release.flowVersion.id,
          }
        : null,
    };
  });
  // Releases of an earlier source flow (before the API was pointed at this one) are older than any version of this flow.
  const highestServed = Math.max(0, ...serving.map((s) => (versions.some((v) => v.id === s.release?.flowVersionId) ? s.release!.flowVersion : 0)));
  return {
    id: api.id,
    slug: api.slug,
    name: api.name,
    description: api.description,
    status: api.status,
    createdAt: api.createdAt,
    flow: api.flow ? { id: api.flow.id, name: api.flow.name, state: api.flow.state } : null,
    source,
    versions,
    latestVersion: latest,
    selectedVersion: api.selectedFlowVersion,
    serving,
    availableVersion: latest && serving.some((s) => s.release) && latest.version > highestServed ? latest : null,
  };
}
