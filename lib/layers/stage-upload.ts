/**
 * Adding (or replacing) a workspace layer from an uploaded file, web side: the request body is
 * streamed into the blob store as it arrives (`imports/<import id>/upload`), counted while it
 * streams (413 as soon as it passes `MAX_LAYER_UPLOAD_BYTES`, whatever Content-Length said), and
 * never parsed here: parsing, validation and sorting happen in a worker's import process
 * (job "layer-import", lib/layers/run-layer-import.ts) with a memory cap of its own. The import
 * row and its job are written in one transaction, after the upload is whole.
 *
 * Formats: `UPLOAD_FORMATS` (lib/layers/parse/layer-items.ts). Limits: `MAX_LAYER_UPLOAD_BYTES`
 * (2 GiB) here, `MAX_LAYER_ITEMS` (20,000,000) in the import.
 *
 * Replacing an existing layer of the workspace needs `replace: true` (the designer confirmed
 * it); without it: `conflict` naming the layer. Layer ids are unique within a workspace only:
 * another workspace's layer of the same id is neither in the way nor mentioned.
 *
 * @returns the import document (`TLayerImportDocument`, lib/layers/layer-imports.ts).
 * @throws AppError `validation_failed` (`/id`, `/name`, `/file`), `conflict`, `payload_too_large`.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { blobStore } from "@/lib/blobs";
import { db } from "@/lib/db";
import { AppError, assertStorable, validationError, type TFieldError } from "@/lib/errors";
import { enqueue } from "@/lib/jobs/boss";
import { layerImportDocument, type TLayerImportDocument } from "@/lib/layers/layer-imports";
import { emptyFile, formatBytes, MAX_LAYER_UPLOAD_BYTES, tooLarge, UPLOAD_FORMATS, withinBudget, type TUploadFormat } from "@/lib/layers/parse";

export const LAYER_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export { MAX_LAYER_UPLOAD_BYTES, UPLOAD_FORMATS, type TUploadFormat };

export interface TStageUploadInput {
  id: string;
  name: string;
  description?: string;
  format: TUploadFormat;
  /** CSV only: the longitude / latitude columns (found by name when absent). */
  lonColumn?: string;
  latColumn?: string;
  /** The designer confirmed replacing the existing layer with this id. */
  replace?: boolean;
}

export async function stageLayerUpload(
  scope: { workspaceId: string },
  input: TStageUploadInput,
  body: ReadableStream<Uint8Array> | null,
  declaredBytes: number | null,
  /** The size limit (`MAX_LAYER_UPLOAD_BYTES`; smaller in tests). */
  opts: { maxBytes?: number } = {},
): Promise<TLayerImportDocument> {
  const maxBytes = opts.maxBytes ?? MAX_LAYER_UPLOAD_BYTES;
  assertStorable(input.id, ["id"]);
  assertStorable(input.name, ["name"]);
  if (input.description !== undefined) assertStorable(input.description, ["description"]);
  const errors: TFieldError[] = [];
  if (!LAYER_ID_PATTERN.test(input.id) || input.id.length > 100)
    errors.push({ field: "/id", code: "invalid_format", message: "Use lower-case letters, digits and single hyphens (at most 100), e.g. swiss-lakes." });
  if (!input.name.trim() || input.name.length > 200)
    errors.push({ field: "/name", code: "invalid_value", message: "A layer needs a name of 1 to 200 characters." });
  if (errors.length > 0) throw validationError(errors);
  if (declaredBytes !== null && declaredBytes > maxBytes) {
    throw new AppError("payload_too_large", `A layer file may be at most ${formatBytes(maxBytes)}; this one is ${formatBytes(declaredBytes)}.`);
  }
  const existing = await db.layer.findUnique({ where: { workspaceId_id: { workspaceId: scope.workspaceId, id: input.id } }, select: { name: true } });
  if (existing && !input.replace)
    throw new AppError("conflict", `A layer "${input.id}" (${existing.name}) exists already; confirm replacing it (replace=1) or choose another id.`);

  const importId = randomUUID();
  const uploadKey = `imports/${importId}/upload`;
  const budget = { bytesLeft: maxBytes };
  // Node's ReadableStream is async iterable (cancelled when the loop stops early); the DOM types do not say so.
  const raw = (body ?? new ReadableStream({ start: (c) => c.close() })) as unknown as AsyncIterable<Uint8Array>;
  const store = blobStore();
  // The staged upload goes again whatever fails before its import row is written.
  try {
    await store.put(
      uploadKey,
      withinBudget(raw, budget, () => tooLarge(maxBytes)),
      { contentType: "application/octet-stream" },
    );
    if (budget.bytesLeft === maxBytes) throw emptyFile();
    const row = await db.$transaction(async (tx) => {
      const created = await tx.layerImport.create({
        data: {
          id: importId,
          workspaceId: scope.workspaceId,
          layerId: input.id,
          name: input.name.trim(),
          description: input.description?.trim() || null,
          format: input.format,
          lonColumn: input.lonColumn || null,
          latColumn: input.latColumn || null,
          replace: input.replace === true,
          uploadKey,
          bytesTotal: BigInt(maxBytes - budget.bytesLeft),
        },
      });
      await enqueue(tx, "layer-import", { importId });
      return created;
    });
    return layerImportDocument(row);
  } catch (err) {
    await store.delete(uploadKey).catch(() => {});
    throw err;
  }
}
