-- Throttling also counts failed sign-ins per email from any address (lib/auth/throttle.ts).
CREATE INDEX "sign_in_failure_email_createdAt_idx" ON "sign_in_failure"("email", "createdAt");
