/**
 * The layers of a workspace without their content: id (what a request sends as
 * `{"layer_id": ...}`), name, kind, item count, bbox `[west, south, east, north]` (features;
 * empty for tables), geometry types, data version and the environments that may read each.
 *
 * And the layers a caller may name as `{"layer_id": ...}` (`readableLayersOf`): for a key,
 * those its environment may read (the console's "Readable layers") of the called API's
 * workspace; for a designer (Try it), those of the workspace. Layer ids are unique within a
 * workspace only, and a run's `layer_id` resolves in its API's workspace: a layer of another
 * workspace is never named, so an id only another workspace (or organization) uses gets the
 * same answer as one nobody uses. They are what the docs page, the OpenAPI document, the MCP
 * tools and `list_layers`, and the 422 for an unreadable id tell clients about
 * (lib/flows/input-geometry.ts).
 */
import "server-only";
import { db } from "@/lib/db";
import type { TReadableLayer } from "@/lib/flows/input-geometry";
import { compareNames } from "@/lib/utils";

/**
 * The workspace's layers by name (case-insensitive, `compareNames`), then id (see the module
 * doc); `geometryTypes` sorted, empty for tables and when not known.
 */
export async function listLayers(scope: { workspaceId: string }) {
  const rows = await db.layer.findMany({
    where: { workspaceId: scope.workspaceId },
    include: { environments: { include: { environment: { select: { slug: true } } } } },
  });
  rows.sort((a, b) => compareNames(a.name, b.name) || compareNames(a.id, b.id));
  return rows.map((l) => ({
    id: l.id,
    name: l.name,
    description: l.description,
    kind: l.kind,
    itemCount: l.itemCount,
    bbox: l.bbox,
    geometryTypes: l.geometryTypes,
    dataVersion: l.dataVersion,
    updatedAt: l.updatedAt,
    environments: l.environments.map((e) => e.environment.slug).sort(),
  }));
}

/**
 * Whose readable layers: a workspace (a designer's Try it: all its layers), or an environment
 * (by id, or by organization and environment slugs) for the APIs of one workspace. Without
 * `workspaceId`, an environment's readable layers of every workspace (MCP: one server serves
 * the APIs of several workspaces; each tool keeps those of its API's workspace).
 */
export type TReadableScope =
  { workspaceId: string } | { environmentId: string; workspaceId?: string } | { organization: string; environment: string; workspaceId?: string };

/** A readable layer with its workspace (ids are unique within a workspace only; clients are never told it). */
export type TWorkspaceReadableLayer = TReadableLayer & { workspaceId: string };

const READABLE_SELECT = { id: true, workspaceId: true, name: true, kind: true, geometryTypes: true, itemCount: true } as const;

/**
 * The layers `scope` may read, by name (then id), as clients are told of them; with `ids`,
 * only those of them (the check of a request's `layer_id` values reads no more).
 */
export async function readableLayersOf(scope: TReadableScope, ids?: readonly string[]): Promise<TWorkspaceReadableLayer[]> {
  const only = ids ? { id: { in: [...ids] } } : {};
  const orderBy = [{ name: "asc" as const }, { id: "asc" as const }];
  const workspace = scope.workspaceId === undefined ? {} : { workspaceId: scope.workspaceId };
  if (!("environmentId" in scope) && !("environment" in scope)) {
    return db.layer.findMany({ where: { ...workspace, ...only }, select: READABLE_SELECT, orderBy });
  }
  const environment = "environmentId" in scope ? { id: scope.environmentId } : { slug: scope.environment, organization: { slug: scope.organization } };
  return db.layer.findMany({ where: { ...workspace, ...only, environments: { some: { environment } } }, select: READABLE_SELECT, orderBy });
}
