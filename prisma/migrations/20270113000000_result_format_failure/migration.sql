-- A format of a result that passed the result size limit when made after its run: its
-- downloads answer 422 at once instead of making it again (lib/runs/make-result-format.ts).
CREATE TABLE "result_format_failure" (
    "runId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "limit" TEXT NOT NULL,
    "failedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "result_format_failure_pkey" PRIMARY KEY ("runId","key","format")
);

ALTER TABLE "result_format_failure" ADD CONSTRAINT "result_format_failure_runId_key_fkey" FOREIGN KEY ("runId", "key") REFERENCES "run_result"("runId", "key") ON DELETE CASCADE ON UPDATE CASCADE;
