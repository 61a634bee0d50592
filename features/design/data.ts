/** What design pages read beyond lib's domain functions. Server only. */
import "server-only";
import { listFlows } from "@/lib/flows/list-flows";

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
