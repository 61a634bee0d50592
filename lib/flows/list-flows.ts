/**
 * The flows of a workspace for the design tool's list: each flow with its numbered versions
 * (newest first, without their documents), its state (`active`, `trashed`; permanently
 * deleted flows are not listed) and the Flow APIs that use it.
 */
import "server-only";
import { db } from "@/lib/db";

export async function listFlows(scope: { workspaceId: string }) {
  const flows = await db.flow.findMany({
    where: { workspaceId: scope.workspaceId, state: { not: "deleted" } },
    orderBy: [{ state: "asc" }, { name: "asc" }],
    select: {
      id: true,
      name: true,
      description: true,
      state: true,
      trashedAt: true,
      createdAt: true,
      versions: { select: { id: true, version: true, createdAt: true }, orderBy: { version: "desc" } },
      flowApis: { where: { deletedAt: null }, select: { id: true, slug: true, name: true, status: true }, orderBy: { name: "asc" } },
    },
  });
  return flows.map(({ flowApis, ...f }) => ({ ...f, apis: flowApis }));
}

export type TFlowListEntry = Awaited<ReturnType<typeof listFlows>>[number];
