-- 1. Invalidation of the web processes' caller cache (lib/api/caller-cache.ts): any change
--    to what decides who may call which API sends NOTIFY auth_changed, whoever makes it
--    (the app, a console, plain SQL), so a revoked key or grant stops working at once.
CREATE FUNCTION "flowapi_notify_auth_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('auth_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "api_key_auth_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "api_key"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();
CREATE TRIGGER "consumer_auth_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "consumer"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();
CREATE TRIGGER "access_grant_auth_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "access_grant"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();
CREATE TRIGGER "environment_api_auth_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "environment_api"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();
CREATE TRIGGER "release_auth_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "release"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();
CREATE TRIGGER "flow_api_auth_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "flow_api"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();
CREATE TRIGGER "environment_auth_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "environment"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();
CREATE TRIGGER "organization_auth_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organization"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();
CREATE TRIGGER "workspace_auth_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "workspace"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();
CREATE TRIGGER "plan_auth_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "plan"
  FOR EACH STATEMENT EXECUTE FUNCTION "flowapi_notify_auth_changed"();

-- 2. Usage counters are sharded: every accepted run updates its workspace's counter inside
--    the run's transaction, so one row per (workspace, day) would serialise all concurrent
--    runs of a workspace on its row lock. Readers sum over shards.
ALTER TABLE "usage_counter" ADD COLUMN "shard" SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE "usage_counter" DROP CONSTRAINT "usage_counter_pkey";
ALTER TABLE "usage_counter" ADD CONSTRAINT "usage_counter_pkey" PRIMARY KEY ("workspaceId", "day", "shard");
