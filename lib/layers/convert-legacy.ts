/**
 * Converts what a database from before the blob store still holds in Postgres (migration
 * 20261230000000_blob_store kept it under `legacy_*` names): layers stored as gzipped JSON
 * (`legacy_layer_data`) become layer files, and result files stored in chunks
 * (`legacy_result_file_chunk`) become blobs. Each item is converted and its legacy row deleted
 * in turn, so an interrupted conversion resumes where it stopped; each table is dropped once
 * empty. Runs at every start (scripts/start.ts through the seed, scripts/migrate.ts) and does
 * nothing when both tables are gone.
 *
 * Legacy result files keep serving their stored format; the other format of such a result
 * (there is no lossless copy of it) answers 404 as it did once past its retention.
 */
import "server-only";
import { gunzipSync } from "node:zlib";
import { blobStore } from "@/lib/blobs";
import { db } from "@/lib/db";
import type { TFeature, TRow } from "@/lib/engine/types";
import { writeLayerItems } from "@/lib/layers/write-layer";

async function tableExists(name: string): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<{ exists: boolean }[]>(`SELECT to_regclass($1) IS NOT NULL AS "exists"`, `public.${name}`);
  return rows[0]?.exists === true;
}

async function convertLayers(log: (m: string) => void): Promise<void> {
  if (!(await tableExists("legacy_layer_data"))) return;
  // Migration 20270105000000_workspace_layer_ids named each row's layer by (workspace, id).
  const ids = await db.$queryRawUnsafe<{ workspaceId: string; layerId: string }[]>(`SELECT "workspaceId"::text, "layerId" FROM "legacy_layer_data"`);
  for (const { workspaceId, layerId } of ids) {
    const [row] = await db.$queryRawUnsafe<{ content: Buffer }[]>(
      `SELECT "content" FROM "legacy_layer_data" WHERE "workspaceId" = $1::uuid AND "layerId" = $2`,
      workspaceId,
      layerId,
    );
    const key = { workspaceId, id: layerId };
    const layer = await db.layer.findUnique({ where: { workspaceId_id: key }, select: { kind: true } });
    if (row && layer) {
      const doc = JSON.parse(gunzipSync(row.content).toString("utf8")) as { features?: TFeature[]; rows?: TRow[] };
      const fields = await writeLayerItems(workspaceId, layerId, { kind: layer.kind, items: (layer.kind === "features" ? doc.features : doc.rows) ?? [] });
      await db.layer.update({ where: { workspaceId_id: key }, data: { ...fields, dataVersion: { increment: 1 } } });
      log(`converted layer ${layerId} (${fields.itemCount} items) into ${fields.fileKey}`);
    }
    await db.$executeRawUnsafe(`DELETE FROM "legacy_layer_data" WHERE "workspaceId" = $1::uuid AND "layerId" = $2`, workspaceId, layerId);
  }
  await db.$executeRawUnsafe(`DROP TABLE IF EXISTS "legacy_layer_data"`);
}

async function convertResultFiles(log: (m: string) => void): Promise<void> {
  if (!(await tableExists("legacy_result_file_chunk"))) return;
  const files = await db.resultFile.findMany({ where: { blobKey: null }, select: { runId: true, key: true, format: true } });
  for (const f of files) {
    const blobKey = `runs/${f.runId}/${f.key}/${f.format}`;
    async function* chunks() {
      for (let seq = 0; ; seq++) {
        const [c] = await db.$queryRawUnsafe<{ bytes: Buffer }[]>(
          `SELECT "bytes" FROM "legacy_result_file_chunk" WHERE "runId" = $1::uuid AND "key" = $2 AND "format" = $3 AND "seq" = $4`,
          f.runId,
          f.key,
          f.format,
          seq,
        );
        if (!c) return;
        yield new Uint8Array(c.bytes);
      }
    }
    await blobStore().put(blobKey, chunks());
    await db.resultFile.update({ where: { runId_key_format: f }, data: { blobKey } });
  }
  if (files.length > 0) log(`moved ${files.length} result files into the blob store`);
  await db.$executeRawUnsafe(`DROP TABLE IF EXISTS "legacy_result_file_chunk"`);
}

/** Converts every legacy layer and result file (see module doc). */
export async function convertLegacyData(log: (m: string) => void = () => {}): Promise<void> {
  await convertLayers(log);
  await convertResultFiles(log);
}
