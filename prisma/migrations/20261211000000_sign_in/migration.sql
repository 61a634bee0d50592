-- Sign-in for designers and console admins (issue 9).
-- 1. Users get a password hash (scrypt, lib/users/password.ts) and a session version: every
--    JWT carries the version it was issued with and is refused once the user's differs, so
--    "sign out everywhere", a password change or a removed membership take effect at once.
ALTER TABLE "app_user" ADD COLUMN "passwordHash" TEXT;
ALTER TABLE "app_user" ADD COLUMN "sessionVersion" INTEGER NOT NULL DEFAULT 0;

-- 2. Roles are per organization (designer: the design tool; admin: the design tool and the
--    serving console), no longer per workspace. A user keeps the highest role they had in
--    any workspace of the organization.
CREATE TABLE "organization_membership" (
    "userId" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "role" "MemberRole" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "organization_membership_pkey" PRIMARY KEY ("userId","organizationId")
);
ALTER TABLE "organization_membership" ADD CONSTRAINT "organization_membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "organization_membership" ADD CONSTRAINT "organization_membership_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "organization_membership_organizationId_idx" ON "organization_membership"("organizationId");

INSERT INTO "organization_membership" ("userId", "organizationId", "role")
SELECT m."userId", w."organizationId", MAX(m."role")
FROM "membership" m JOIN "workspace" w ON w."id" = m."workspaceId"
GROUP BY m."userId", w."organizationId";

DROP TABLE "membership";
ALTER TABLE "organization_membership" RENAME TO "membership";
ALTER TABLE "membership" RENAME CONSTRAINT "organization_membership_pkey" TO "membership_pkey";
ALTER TABLE "membership" RENAME CONSTRAINT "organization_membership_userId_fkey" TO "membership_userId_fkey";
ALTER TABLE "membership" RENAME CONSTRAINT "organization_membership_organizationId_fkey" TO "membership_organizationId_fkey";
ALTER INDEX "organization_membership_organizationId_idx" RENAME TO "membership_organizationId_idx";

-- 3. Failed sign-ins, for throttling (lib/auth/throttle.ts): one row per failure, keyed by
--    the lower-cased email and the client address; rows older than a day are purged on the
--    next failure. Email addresses of unknown users are stored too, so the answer never
--    depends on whether the account exists.
CREATE TABLE "sign_in_failure" (
    "id" BIGSERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sign_in_failure_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "sign_in_failure_email_ip_createdAt_idx" ON "sign_in_failure"("email", "ip", "createdAt");
CREATE INDEX "sign_in_failure_createdAt_idx" ON "sign_in_failure"("createdAt");
