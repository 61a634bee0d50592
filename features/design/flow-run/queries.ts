/** TanStack Query factories of the flow preview (flow-run-panel.tsx) and Try it (try-it-panel.tsx): the workspace's layers and one run. */
import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/features/shell/fetch-json";
import type { TReadableLayer } from "@/lib/flows/input-geometry";
import type { TFlowPreview } from "@/lib/runs/preview-run";
import type { TRunDocument } from "@/lib/runs/run-document";

type TWorkspaceRef = { organization: string; workspace: string };

const FINAL = new Set(["completed", "failed", "cancelled"]);

/** The base path of the workspace's design routes. */
export function designApiBase(p: TWorkspaceRef): string {
  return `/api/design/${encodeURIComponent(p.organization)}/${encodeURIComponent(p.workspace)}`;
}

/** The layers of the workspace a run's inputs may use. */
export const workspaceLayersQuery = (p: TWorkspaceRef) =>
  queryOptions({
    queryKey: ["design", p.organization, p.workspace, "layers", "readable"],
    queryFn: () => fetchJson<TReadableLayer[]>(`${designApiBase(p)}/layers`),
    staleTime: 30_000,
  });

/** One preview run, polled until it is final. */
export const flowPreviewQuery = (p: TWorkspaceRef & { runId: string | null }) =>
  queryOptions({
    queryKey: ["design", p.organization, p.workspace, "flow-previews", p.runId],
    queryFn: () => fetchJson<TFlowPreview>(`${designApiBase(p)}/flow-previews/${p.runId}`),
    enabled: Boolean(p.runId),
    refetchInterval: (q) => (isFinal(q.state.data?.state) ? false : 500),
  });

/** One Try-it run of the designer, polled until it is final. */
export const designRunQuery = (p: TWorkspaceRef & { runId: string | null }) =>
  queryOptions({
    queryKey: ["design", p.organization, p.workspace, "runs", p.runId],
    queryFn: () => fetchJson<TRunDocument>(`${designApiBase(p)}/runs/${p.runId}`),
    enabled: Boolean(p.runId),
    refetchInterval: (q) => (isFinal(q.state.data?.state) ? false : 500),
  });

/** True once a run has ended (completed, failed or cancelled). */
export function isFinal(state: string | undefined): boolean {
  return state !== undefined && FINAL.has(state);
}
