-- The data plane moves to a blob store (lib/blobs): layers become GeoParquet files and
-- result files become blobs; Postgres keeps each file's key, size and checksum.
--
-- Layers: the file's key, size, checksum and columns. The gzipped JSON in "layer_data" is
-- converted into files by code at the next start (lib/layers/convert-legacy-layers.ts, which
-- drops the table once it is empty): SQL cannot write GeoParquet. Until then it is kept
-- under another name, outside the Prisma schema.
ALTER TABLE "layer" ADD COLUMN "fileKey" TEXT,
  ADD COLUMN "fileSizeBytes" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "fileSha256" TEXT,
  ADD COLUMN "columns" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "layer_data" RENAME TO "legacy_layer_data";
ALTER TABLE "legacy_layer_data" RENAME CONSTRAINT "layer_data_pkey" TO "legacy_layer_data_pkey";
ALTER TABLE "legacy_layer_data" RENAME CONSTRAINT "layer_data_layerId_fkey" TO "legacy_layer_data_layerId_fkey";

-- Uploads followed from the first byte to the new layer version.
CREATE TYPE "LayerImportState" AS ENUM ('queued', 'running', 'completed', 'failed');
CREATE TABLE "layer_import" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "layerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "format" TEXT NOT NULL,
    "lonColumn" TEXT,
    "latColumn" TEXT,
    "replace" BOOLEAN NOT NULL DEFAULT false,
    "state" "LayerImportState" NOT NULL DEFAULT 'queued',
    "uploadKey" TEXT NOT NULL,
    "bytesTotal" BIGINT NOT NULL,
    "bytesDone" BIGINT NOT NULL DEFAULT 0,
    "itemsDone" BIGINT NOT NULL DEFAULT 0,
    "error" JSONB,
    "result" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    CONSTRAINT "layer_import_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "layer_import_workspaceId_createdAt_idx" ON "layer_import"("workspaceId", "createdAt" DESC);
ALTER TABLE "layer_import" ADD CONSTRAINT "layer_import_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Result files: a blob each. Files stored in chunks before this migration are copied into
-- blobs at the next start (lib/runs/convert-legacy-result-files.ts), which then drops the
-- chunk table; until then it is kept under another name.
ALTER TABLE "result_file" ADD COLUMN "blobKey" TEXT;
ALTER TABLE "result_file" ALTER COLUMN "sizeBytes" SET DATA TYPE BIGINT;
ALTER TABLE "run_result" ADD COLUMN "spillKey" TEXT;
ALTER TABLE "result_file_chunk" RENAME TO "legacy_result_file_chunk";
ALTER TABLE "legacy_result_file_chunk" RENAME CONSTRAINT "result_file_chunk_pkey" TO "legacy_result_file_chunk_pkey";
ALTER TABLE "legacy_result_file_chunk" RENAME CONSTRAINT "result_file_chunk_runId_fkey" TO "legacy_result_file_chunk_runId_fkey";
