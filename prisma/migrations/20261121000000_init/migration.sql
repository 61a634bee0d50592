-- CreateEnum
CREATE TYPE "MemberRole" AS ENUM ('designer', 'admin');
CREATE TYPE "LayerKind" AS ENUM ('features', 'table');
CREATE TYPE "FlowState" AS ENUM ('active', 'trashed', 'deleted');
CREATE TYPE "FlowApiStatus" AS ENUM ('draft', 'published');
CREATE TYPE "RunState" AS ENUM ('queued', 'running', 'completed', 'failed', 'cancelled');
CREATE TYPE "RunMode" AS ENUM ('api', 'try');
CREATE TYPE "ResultKind" AS ENUM ('layer', 'table');

-- CreateTable
CREATE TABLE "organization" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "organization_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "plan" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "maxFlowApis" INTEGER NOT NULL,
    "aiAccess" BOOLEAN NOT NULL DEFAULT false,
    "rateLimitPerMinute" INTEGER NOT NULL DEFAULT 600,
    CONSTRAINT "plan_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "workspace" (
    "id" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "workspace_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "app_user" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "app_user_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "membership" (
    "userId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "role" "MemberRole" NOT NULL,
    CONSTRAINT "membership_pkey" PRIMARY KEY ("userId","workspaceId")
);

CREATE TABLE "layer" (
    "id" TEXT NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "LayerKind" NOT NULL,
    "description" TEXT,
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "dataVersion" INTEGER NOT NULL DEFAULT 1,
    "bbox" DOUBLE PRECISION[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "layer_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "layer_data" (
    "layerId" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    CONSTRAINT "layer_data_pkey" PRIMARY KEY ("layerId")
);

CREATE TABLE "flow" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "state" "FlowState" NOT NULL DEFAULT 'active',
    "trashedAt" TIMESTAMP(3),
    "deletedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "flow_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "flow_version" (
    "id" UUID NOT NULL,
    "flowId" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "definition" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "flow_version_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "flow_api" (
    "id" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "flowId" UUID,
    "selectedFlowVersionId" UUID,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "status" "FlowApiStatus" NOT NULL DEFAULT 'draft',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "flow_api_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "release" (
    "id" UUID NOT NULL,
    "flowApiId" UUID NOT NULL,
    "environmentId" UUID NOT NULL,
    "flowVersionId" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "publishedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "release_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "environment" (
    "id" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "environment_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "environment_api" (
    "environmentId" UUID NOT NULL,
    "flowApiId" UUID NOT NULL,
    "releaseId" UUID NOT NULL,
    "aiAccess" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "environment_api_pkey" PRIMARY KEY ("environmentId","flowApiId")
);

CREATE TABLE "environment_layer" (
    "environmentId" UUID NOT NULL,
    "layerId" TEXT NOT NULL,
    CONSTRAINT "environment_layer_pkey" PRIMARY KEY ("environmentId","layerId")
);

CREATE TABLE "consumer" (
    "id" UUID NOT NULL,
    "environmentId" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "consumer_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "api_key" (
    "id" UUID NOT NULL,
    "consumerId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "access_grant" (
    "consumerId" UUID NOT NULL,
    "flowApiId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "access_grant_pkey" PRIMARY KEY ("consumerId","flowApiId")
);

CREATE TABLE "run" (
    "id" UUID NOT NULL,
    "mode" "RunMode" NOT NULL,
    "workspaceId" UUID NOT NULL,
    "flowApiId" UUID NOT NULL,
    "flowVersionId" UUID NOT NULL,
    "releaseId" UUID,
    "environmentId" UUID,
    "consumerId" UUID,
    "userId" UUID,
    "state" "RunState" NOT NULL DEFAULT 'queued',
    "request" JSONB,
    "requestFingerprint" TEXT NOT NULL,
    "formats" JSONB NOT NULL,
    "stepsDone" INTEGER NOT NULL DEFAULT 0,
    "stepsTotal" INTEGER NOT NULL DEFAULT 0,
    "error" JSONB,
    "processingMs" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    CONSTRAINT "run_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "run_result" (
    "runId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "kind" "ResultKind" NOT NULL,
    "format" TEXT NOT NULL,
    "featureCount" INTEGER,
    "rowCount" INTEGER,
    CONSTRAINT "run_result_pkey" PRIMARY KEY ("runId","key")
);

CREATE TABLE "result_file" (
    "runId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "mediaType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "result_file_pkey" PRIMARY KEY ("runId","key","format")
);

CREATE TABLE "idempotency_record" (
    "consumerId" UUID NOT NULL,
    "flowApiId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "runId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "idempotency_record_pkey" PRIMARY KEY ("consumerId","flowApiId","key")
);

CREATE TABLE "usage_counter" (
    "workspaceId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "etlRuns" INTEGER NOT NULL DEFAULT 0,
    "processingMs" BIGINT NOT NULL DEFAULT 0,
    "apiRequests" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "usage_counter_pkey" PRIMARY KEY ("workspaceId","day")
);

CREATE TABLE "worker_heartbeat" (
    "id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "worker_heartbeat_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "organization_slug_key" ON "organization"("slug");
CREATE UNIQUE INDEX "workspace_organizationId_slug_key" ON "workspace"("organizationId", "slug");
CREATE UNIQUE INDEX "app_user_email_key" ON "app_user"("email");
CREATE INDEX "layer_workspaceId_idx" ON "layer"("workspaceId");
CREATE INDEX "flow_workspaceId_idx" ON "flow"("workspaceId");
CREATE UNIQUE INDEX "flow_version_flowId_version_key" ON "flow_version"("flowId", "version");
CREATE UNIQUE INDEX "flow_api_organizationId_slug_key" ON "flow_api"("organizationId", "slug");
CREATE UNIQUE INDEX "release_flowApiId_environmentId_number_key" ON "release"("flowApiId", "environmentId", "number");
CREATE UNIQUE INDEX "environment_organizationId_slug_key" ON "environment"("organizationId", "slug");
CREATE UNIQUE INDEX "consumer_environmentId_slug_key" ON "consumer"("environmentId", "slug");
CREATE UNIQUE INDEX "api_key_hash_key" ON "api_key"("hash");
CREATE INDEX "api_key_consumerId_idx" ON "api_key"("consumerId");
CREATE INDEX "run_consumerId_flowApiId_createdAt_idx" ON "run"("consumerId", "flowApiId", "createdAt" DESC);
CREATE INDEX "run_state_idx" ON "run"("state");
CREATE INDEX "idempotency_record_expiresAt_idx" ON "idempotency_record"("expiresAt");

-- AddForeignKey
ALTER TABLE "workspace" ADD CONSTRAINT "workspace_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "workspace" ADD CONSTRAINT "workspace_planId_fkey" FOREIGN KEY ("planId") REFERENCES "plan"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "membership" ADD CONSTRAINT "membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "membership" ADD CONSTRAINT "membership_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "layer" ADD CONSTRAINT "layer_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "layer_data" ADD CONSTRAINT "layer_data_layerId_fkey" FOREIGN KEY ("layerId") REFERENCES "layer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "flow" ADD CONSTRAINT "flow_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "flow_version" ADD CONSTRAINT "flow_version_flowId_fkey" FOREIGN KEY ("flowId") REFERENCES "flow"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "flow_api" ADD CONSTRAINT "flow_api_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "flow_api" ADD CONSTRAINT "flow_api_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "flow_api" ADD CONSTRAINT "flow_api_flowId_fkey" FOREIGN KEY ("flowId") REFERENCES "flow"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "flow_api" ADD CONSTRAINT "flow_api_selectedFlowVersionId_fkey" FOREIGN KEY ("selectedFlowVersionId") REFERENCES "flow_version"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "release" ADD CONSTRAINT "release_flowApiId_fkey" FOREIGN KEY ("flowApiId") REFERENCES "flow_api"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "release" ADD CONSTRAINT "release_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "release" ADD CONSTRAINT "release_flowVersionId_fkey" FOREIGN KEY ("flowVersionId") REFERENCES "flow_version"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "environment" ADD CONSTRAINT "environment_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "environment_api" ADD CONSTRAINT "environment_api_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "environment_api" ADD CONSTRAINT "environment_api_flowApiId_fkey" FOREIGN KEY ("flowApiId") REFERENCES "flow_api"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "environment_api" ADD CONSTRAINT "environment_api_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "release"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "environment_layer" ADD CONSTRAINT "environment_layer_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "environment_layer" ADD CONSTRAINT "environment_layer_layerId_fkey" FOREIGN KEY ("layerId") REFERENCES "layer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "consumer" ADD CONSTRAINT "consumer_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_consumerId_fkey" FOREIGN KEY ("consumerId") REFERENCES "consumer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "access_grant" ADD CONSTRAINT "access_grant_consumerId_fkey" FOREIGN KEY ("consumerId") REFERENCES "consumer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "access_grant" ADD CONSTRAINT "access_grant_flowApiId_fkey" FOREIGN KEY ("flowApiId") REFERENCES "flow_api"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "run" ADD CONSTRAINT "run_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "run" ADD CONSTRAINT "run_flowApiId_fkey" FOREIGN KEY ("flowApiId") REFERENCES "flow_api"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "run" ADD CONSTRAINT "run_flowVersionId_fkey" FOREIGN KEY ("flowVersionId") REFERENCES "flow_version"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "run" ADD CONSTRAINT "run_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "release"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "run" ADD CONSTRAINT "run_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "environment"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "run" ADD CONSTRAINT "run_consumerId_fkey" FOREIGN KEY ("consumerId") REFERENCES "consumer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "run" ADD CONSTRAINT "run_userId_fkey" FOREIGN KEY ("userId") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "run_result" ADD CONSTRAINT "run_result_runId_fkey" FOREIGN KEY ("runId") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "result_file" ADD CONSTRAINT "result_file_runId_fkey" FOREIGN KEY ("runId") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "idempotency_record" ADD CONSTRAINT "idempotency_record_consumerId_fkey" FOREIGN KEY ("consumerId") REFERENCES "consumer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "idempotency_record" ADD CONSTRAINT "idempotency_record_flowApiId_fkey" FOREIGN KEY ("flowApiId") REFERENCES "flow_api"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "usage_counter" ADD CONSTRAINT "usage_counter_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
