-- Layer ids are unique within a workspace, no longer across the service: two workspaces (of one
-- organization or of two) may each have a layer "stores", and an upload no longer tells one
-- organization that another uses an id. The key of "layer" becomes (workspaceId, id), and what
-- refers to a layer names its workspace too. Existing rows keep their ids (they were unique
-- everywhere, so each names exactly one layer of its own workspace).

-- environment_layer: the layer's workspace, filled from the layer, then the keys and the FK.
ALTER TABLE "environment_layer" ADD COLUMN "workspaceId" UUID;
UPDATE "environment_layer" el SET "workspaceId" = l."workspaceId" FROM "layer" l WHERE l."id" = el."layerId";
DELETE FROM "environment_layer" WHERE "workspaceId" IS NULL;
ALTER TABLE "environment_layer" ALTER COLUMN "workspaceId" SET NOT NULL;
ALTER TABLE "environment_layer" DROP CONSTRAINT "environment_layer_layerId_fkey";
ALTER TABLE "environment_layer" DROP CONSTRAINT "environment_layer_pkey";

-- legacy_layer_data (only in databases from before the blob store, until lib/layers/convert-legacy.ts
-- has converted it): it refers to the layer too.
DO $$
BEGIN
  IF to_regclass('public.legacy_layer_data') IS NOT NULL THEN
    ALTER TABLE "legacy_layer_data" ADD COLUMN "workspaceId" UUID;
    UPDATE "legacy_layer_data" d SET "workspaceId" = l."workspaceId" FROM "layer" l WHERE l."id" = d."layerId";
    DELETE FROM "legacy_layer_data" WHERE "workspaceId" IS NULL;
    ALTER TABLE "legacy_layer_data" ALTER COLUMN "workspaceId" SET NOT NULL;
    ALTER TABLE "legacy_layer_data" DROP CONSTRAINT "legacy_layer_data_layerId_fkey";
    ALTER TABLE "legacy_layer_data" DROP CONSTRAINT "legacy_layer_data_pkey";
    ALTER TABLE "legacy_layer_data" ADD CONSTRAINT "legacy_layer_data_pkey" PRIMARY KEY ("workspaceId", "layerId");
  END IF;
END $$;

-- layer: the composite key (its first column serves the workspace's lookups: the old index goes).
ALTER TABLE "layer" DROP CONSTRAINT "layer_pkey";
ALTER TABLE "layer" ADD CONSTRAINT "layer_pkey" PRIMARY KEY ("workspaceId", "id");
DROP INDEX "layer_workspaceId_idx";

ALTER TABLE "environment_layer" ADD CONSTRAINT "environment_layer_pkey" PRIMARY KEY ("environmentId", "workspaceId", "layerId");
CREATE INDEX "environment_layer_workspaceId_layerId_idx" ON "environment_layer"("workspaceId", "layerId");
ALTER TABLE "environment_layer" ADD CONSTRAINT "environment_layer_workspaceId_layerId_fkey" FOREIGN KEY ("workspaceId", "layerId") REFERENCES "layer"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

DO $$
BEGIN
  IF to_regclass('public.legacy_layer_data') IS NOT NULL THEN
    ALTER TABLE "legacy_layer_data" ADD CONSTRAINT "legacy_layer_data_layerId_fkey" FOREIGN KEY ("workspaceId", "layerId") REFERENCES "layer"("workspaceId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
  END IF;
END $$;
