/**
 * The Flow APIs of a workspace for the design tool's list: status, source flow and label,
 * the environments serving each (with the pinned flow version), and the plan's limit with
 * how much of it is used (drafts count; deleted APIs are neither listed nor counted).
 */
import "server-only";
import { db } from "@/lib/db";
import { sourceStatus } from "@/lib/apis/source-label";

export async function listFlowApis(scope: { workspaceId: string }) {
  const [apis, workspace] = await Promise.all([
    db.flowApi.findMany({
      where: { workspaceId: scope.workspaceId, deletedAt: null },
      orderBy: { name: "asc" },
      include: {
        flow: { select: { id: true, name: true, state: true } },
        deployments: { include: { environment: { select: { slug: true } }, release: { include: { flowVersion: { select: { version: true } } } } } },
      },
    }),
    db.workspace.findUniqueOrThrow({ where: { id: scope.workspaceId }, include: { plan: true } }),
  ]);
  return {
    apis: apis.map((a) => ({
      id: a.id,
      slug: a.slug,
      name: a.name,
      status: a.status,
      flow: a.flow,
      sourceLabel: sourceStatus(a.flow).label,
      serving: a.deployments
        .map((d) => ({ environment: d.environment.slug, flowVersion: d.release.flowVersion.version, releaseNumber: d.release.number }))
        .sort((x, y) => x.environment.localeCompare(y.environment)),
    })),
    plan: { name: workspace.plan.name, maxFlowApis: workspace.plan.maxFlowApis, used: apis.length },
  };
}
