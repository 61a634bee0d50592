-- Rate limiting per API key (README "Rate limits"): one fixed one-minute window counter
-- per (key, workspace whose plan sets the limit), shared by every web process and
-- incremented by a single atomic upsert. UNLOGGED: counters are throw-away state (after a
-- database crash they restart at zero) and skip the write-ahead log on every request.
CREATE UNLOGGED TABLE "rate_limit_window" (
    "keyId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "rate_limit_window_pkey" PRIMARY KEY ("keyId","workspaceId","windowStart")
);

-- The purge job removes past windows by age.
CREATE INDEX "rate_limit_window_windowStart_idx" ON "rate_limit_window"("windowStart");
