-- Previews of an unsaved flow document (lib/runs/preview-run.ts): a designer's run with no
-- API and no flow version; it executes the snapshot in "flowDocument" instead.
ALTER TABLE "run" ALTER COLUMN "flowApiId" DROP NOT NULL,
  ALTER COLUMN "flowVersionId" DROP NOT NULL,
  ADD COLUMN "flowDocument" JSONB;
ALTER TABLE "run" ADD CONSTRAINT "run_flow_check" CHECK (("flowVersionId" IS NULL) <> ("flowDocument" IS NULL));
