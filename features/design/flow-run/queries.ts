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

/** One run, polled until it is final. */
const polledRun = <T extends { state: string }>(p: TWorkspaceRef & { runId: string | null }, path: "runs" | "flow-previews") =>
  queryOptions({
    queryKey: ["design", p.organization, p.workspace, path, p.runId],
    queryFn: () => fetchJson<T>(`${designApiBase(p)}/${path}/${p.runId}`),
    enabled: Boolean(p.runId),
    refetchInterval: (q) => (isFinal(q.state.data?.state) ? false : 500),
  });

/** A preview run of the flow being edited. */
export const flowPreviewQuery = (p: TWorkspaceRef & { runId: string | null }) => polledRun<TFlowPreview>(p, "flow-previews");
/** A Try-it run of the designer. */
export const designRunQuery = (p: TWorkspaceRef & { runId: string | null }) => polledRun<TRunDocument>(p, "runs");

/** True once a run has ended (completed, failed or cancelled). */
export function isFinal(state: string | undefined): boolean {
  return state !== undefined && FINAL.has(state);
}
