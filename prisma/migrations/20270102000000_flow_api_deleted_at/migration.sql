-- A designer may delete a Flow API that no environment serves (lib/apis/delete-flow-api.ts).
-- Its row stays, marked "deletedAt": its runs are never deleted (metering, the console's runs
-- and usage name their API), and it no longer counts against the plan. Its slug is free again
-- for a new API: slugs are unique among the APIs not deleted (a partial index, which the
-- Prisma schema cannot state; it lists a plain index instead).
ALTER TABLE "flow_api" ADD COLUMN "deletedAt" TIMESTAMP(3);
DROP INDEX "flow_api_organizationId_slug_key";
CREATE UNIQUE INDEX "flow_api_organizationId_slug_key" ON "flow_api"("organizationId", "slug") WHERE "deletedAt" IS NULL;
