-- How an OGC execute request asked for its results (outputs, transmission modes, response),
-- kept with the run so that a later GET /jobs/{jobId}/results answers as the request asked
-- (OGC 18-062r2, /req/core/job-results-async-*). The transmission modes were kept with the
-- run's subscriber for its callback until now: they move here.
ALTER TABLE "run" ADD COLUMN "ogcAnswer" JSONB;

UPDATE "run"
   SET "ogcAnswer" = jsonb_build_object('transmission', COALESCE("subscriber"->'transmission', '{}'::jsonb)),
       "subscriber" = "subscriber" - 'transmission'
 WHERE "subscriber"->>'door' = 'ogc';
