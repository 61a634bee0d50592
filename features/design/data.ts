/**
 * What design pages read beyond lib's domain functions. Server only. The lookups of a page's
 * one item are memoised per request (React `cache`), so the page and its title
 * (`generateMetadata`, features/shell/page-title.ts) read it once.
 */
import "server-only";
import { cache } from "react";
import { getFlowApiOrThrow } from "@/lib/apis/get-flow-api";
import { getFlowOrThrow } from "@/lib/flows/get-flow-or-throw";
import { listFlows } from "@/lib/flows/list-flows";
import { listLayers } from "@/lib/layers/list-layers";
import { listEnvironments } from "@/features/shell/data";
import type { TRunLayerDefaults } from "@/features/design/flow-run/flow-run-panel";

/** A flow an API can publish: active, with its latest version number. */
export interface TFlowChoice {
  id: string;
  name: string;
  latest: number;
}

/** The workspace's active flows that have a saved version (New API, choosing a new source). */
export async function listFlowChoices(scope: { workspaceId: string }): Promise<TFlowChoice[]> {
  return (await listFlows(scope)).flatMap((f) => (f.state === "active" && f.versions[0] ? [{ id: f.id, name: f.name, latest: f.versions[0].version }] : []));
}

/** `getFlowOrThrow`, once per request. */
export const flowOf = cache((workspaceId: string, flowId: string) => getFlowOrThrow({ workspaceId }, flowId));

/** `getFlowApiOrThrow`, once per request. */
export const flowApiOf = cache((organizationId: string, workspaceId: string, flowApiId: string) =>
  getFlowApiOrThrow({ organizationId, workspaceId }, flowApiId),
);

/** `listLayers`, once per request. */
export const layersOf = cache((workspaceId: string) => listLayers({ workspaceId }));

/**
 * What "Run the flow" defaults its layer inputs by, as Try it does: the environment a published
 * call would most likely run in (`production` first) and the environments each layer is readable in.
 */
export async function runLayerDefaults(scope: { organizationId: string; workspace: { id: string } }): Promise<TRunLayerDefaults> {
  const [environments, layers] = await Promise.all([listEnvironments(scope.organizationId), layersOf(scope.workspace.id)]);
  return { environment: environments[0]?.slug ?? "production", readableIn: Object.fromEntries(layers.map((l) => [l.id, l.environments])) };
}
