/**
 * The flows of a workspace for the design tool's list: each flow with its numbered versions
 * (newest first, without their documents), its state (`active`, `trashed`; permanently
 * deleted flows are not listed) and the Flow APIs that use it.
 */
import "server-only";
import { db } from "@/lib/db";

export interface TFlowListEntry {
  id: string;
  name: string;
  description: string | null;
  state: "active" | "trashed" | "deleted";
  trashedAt: Date | null;
  createdAt: Date;
  versions: { id: string; version: number; createdAt: Date }[];
  apis: { id: string; slug: string; name: string; status: "draft" | "published" }[];
}

export async function listFlows(scope: { workspaceId: string }): Promise<TFlowListEntry[]> {
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
