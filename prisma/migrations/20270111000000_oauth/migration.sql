-- The MCP endpoint's OAuth 2.1 authorization server (lib/oauth): the provider's records
-- (clients, sessions, interactions, grants, codes and tokens, keyed by the SHA-256 of their
-- id so no token is stored in the clear) and the consents that bind a client to a consumer.
CREATE TABLE "oauth_record" (
    "id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grantId" TEXT,
    "uid" TEXT,
    "userCode" TEXT,
    "consumedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "oauth_record_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "oauth_record_grantId_idx" ON "oauth_record"("grantId");
CREATE INDEX "oauth_record_uid_idx" ON "oauth_record"("uid");
CREATE INDEX "oauth_record_expiresAt_idx" ON "oauth_record"("expiresAt");

CREATE TABLE "oauth_authorization" (
    "id" UUID NOT NULL,
    "consumerId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "grantId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientName" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    CONSTRAINT "oauth_authorization_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "oauth_authorization_grantId_key" ON "oauth_authorization"("grantId");
CREATE INDEX "oauth_authorization_consumerId_idx" ON "oauth_authorization"("consumerId");
ALTER TABLE "oauth_authorization" ADD CONSTRAINT "oauth_authorization_consumerId_fkey" FOREIGN KEY ("consumerId") REFERENCES "consumer"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oauth_authorization" ADD CONSTRAINT "oauth_authorization_userId_fkey" FOREIGN KEY ("userId") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
