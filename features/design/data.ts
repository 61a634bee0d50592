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
