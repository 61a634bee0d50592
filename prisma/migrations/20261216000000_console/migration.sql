-- The serving console (issue 11).
-- 1. Calls per environment, API, consumer, UTC day and answer status, recorded at the front
--    doors (lib/metering/call-counter.ts) after the answer is decided: billed calls (status
--    200, any 2xx) give the console API requests per API and per consumer, refused calls
--    (401, 403, 404, 413, 415, 422, 429 ...) are shown by reason and never billed. Billing
--    itself stays in usage_counter. Slugs rather than ids: a 401 knows only the path.
--    `consumerId` is '' when the caller is unknown; `api` is '' for MCP requests refused
--    before a tool was named. Sharded like usage_counter so concurrent calls do not queue
--    on one row lock.
CREATE TABLE "call_counter" (
    "organization" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "door" TEXT NOT NULL,
    "api" TEXT NOT NULL,
    "consumerId" TEXT NOT NULL,
    "status" SMALLINT NOT NULL,
    "shard" SMALLINT NOT NULL DEFAULT 0,
    "count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "call_counter_pkey" PRIMARY KEY ("organization","environment","day","door","api","consumerId","status","shard")
);

-- 2. "Last used" of a key is written on use (lib/keys/touch-api-key.ts). That write must not
--    empty every web process's caller cache, so the key trigger now fires only for changes
--    of the columns that decide access.
DROP TRIGGER "api_key_auth_changed" ON "api_key";
CREATE TRIGGER "api_key_auth_changed" AFTER INSERT OR DELETE OR TRUNCATE ON "api_key"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();
CREATE TRIGGER "api_key_access_changed" AFTER UPDATE OF "consumerId", "hash", "expiresAt", "revokedAt" ON "api_key"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();

-- 3. "The very next call" across processes: NOTIFY alone is not enough, because a web process
--    may serve a request before the notification of a change committed just before it has
--    reached it (seen under load: a grant removed, the next call still 200). Every change that
--    sends auth_changed also bumps one counter row in its own transaction; the caller cache
--    (lib/keys/caller-cache.ts) compares it on every hit, a one-row primary-key read, so a
--    cached answer older than a committed change is never used.
CREATE TABLE "auth_version" (
    "id" SMALLINT NOT NULL,
    "version" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "auth_version_pkey" PRIMARY KEY ("id")
);
INSERT INTO "auth_version" ("id", "version") VALUES (1, 0);

CREATE OR REPLACE FUNCTION "flowapi_notify_auth_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "auth_version" SET "version" = "version" + 1 WHERE "id" = 1;
  PERFORM pg_notify('auth_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
