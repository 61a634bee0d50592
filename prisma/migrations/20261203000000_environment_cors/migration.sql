-- Browser callers (CORS): the origins allowed to call an environment's public API from a
-- web page. Empty (the default) means no cross-origin browser access. "*" allows any origin.
-- Changes reach every web process at once through the environment's auth_changed trigger.
ALTER TABLE "environment" ADD COLUMN "corsOrigins" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
