/**
 * Following a layer import (lib/layers/stage-upload.ts starts one; the worker's
 * lib/layers/run-layer-import.ts finishes it): its document, the recent imports of a workspace,
 * and waiting for one to end (`TLayerImportDocument` below).
 *
 * @throws AppError `not_found` for an import that is not the workspace's.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";

type TImportRow = Awaited<ReturnType<typeof db.layerImport.findUniqueOrThrow>>;

export interface TLayerImportResult {
  layerId: string;
  kind: "features" | "table";
  itemCount: number;
  dataVersion: number;
  replaced: boolean;
}

export interface TLayerImportDocument {
  import_id: string;
  layer_id: string;
  name: string;
  format: string;
  state: "queued" | "running" | "completed" | "failed";
  bytes_total: number;
  bytes_done: number;
  items_done: number;
  created_at: string;
  finished_at: string | null;
  result: TLayerImportResult | null;
  error: { code: string; detail: string; errors?: { field: string; code: string; message: string }[] } | null;
}

export function layerImportDocument(row: TImportRow): TLayerImportDocument {
  return {
    import_id: row.id,
    layer_id: row.layerId,
    name: row.name,
    format: row.format,
    state: row.state,
    bytes_total: Number(row.bytesTotal),
    bytes_done: Number(row.bytesDone),
    items_done: Number(row.itemsDone),
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    result: (row.result as TLayerImportResult | null) ?? null,
    error: (row.error as TLayerImportDocument["error"]) ?? null,
  };
}

export async function getLayerImport(scope: { workspaceId: string }, importId: string): Promise<TLayerImportDocument> {
  const row = /^[0-9a-f-]{36}$/i.test(importId) ? await db.layerImport.findFirst({ where: { id: importId, workspaceId: scope.workspaceId } }) : null;
  if (!row) throw new AppError("not_found", "No such layer import in this workspace.");
  return layerImportDocument(row);
}

/** The workspace's imports of the last day, newest first (at most 20): what the layers page follows. */
export async function listLayerImports(scope: { workspaceId: string }): Promise<TLayerImportDocument[]> {
  const rows = await db.layerImport.findMany({
    where: { workspaceId: scope.workspaceId, createdAt: { gte: new Date(Date.now() - 24 * 3600_000) } },
    orderBy: { createdAt: "desc" },
    take: 20,
  });
  return rows.map(layerImportDocument);
}

/** Waits up to `ms` for the import to end (polling every 100-500 ms); returns its latest document. */
export async function waitForLayerImport(scope: { workspaceId: string }, importId: string, ms: number): Promise<TLayerImportDocument> {
  const deadline = Date.now() + ms;
  let delay = 100;
  for (;;) {
    const doc = await getLayerImport(scope, importId);
    if (doc.state === "completed" || doc.state === "failed" || Date.now() >= deadline) return doc;
    await new Promise((r) => setTimeout(r, Math.min(delay, Math.max(0, deadline - Date.now()))));
    delay = Math.min(delay * 2, 500);
  }
}
