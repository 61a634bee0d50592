/**
 * The layers of a workspace without their content: id (what a request sends as
 * `{"layer_id": ...}`), name, kind, item count, bbox `[west, south, east, north]` (features;
 * empty for tables), data version and the environments that may read each.
 */
import "server-only";
import { db } from "@/lib/db";

export interface TLayerListEntry {
  id: string;
  name: string;
  description: string | null;
  kind: "features" | "table";
  itemCount: number;
  bbox: number[];
  dataVersion: number;
  updatedAt: Date;
  environments: string[];
}

export async function listLayers(scope: { workspaceId: string }): Promise<TLayerListEntry[]> {
  const rows = await db.layer.findMany({
    where: { workspaceId: scope.workspaceId },
    orderBy: { name: "asc" },
    include: { environments: { include: { environment: { select: { slug: true } } } } },
  });
  return rows.map((l) => ({
    id: l.id,
    name: l.name,
    description: l.description,
    kind: l.kind,
    itemCount: l.itemCount,
    bbox: l.bbox,
    dataVersion: l.dataVersion,
    updatedAt: l.updatedAt,
    environments: l.environments.map((e) => e.environment.slug).sort(),
  }));
}
