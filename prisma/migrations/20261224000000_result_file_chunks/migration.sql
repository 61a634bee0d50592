-- Result files in chunks (issue 8, "results streamed to storage in chunks instead of held
-- whole"). The run process hands each ~1 MiB chunk of a file to the worker as soon as it is
-- encoded; the worker stores it at once, outside the transaction that makes the run final,
-- so neither process holds a whole file and storing overlaps encoding. `result_file` keeps
-- one row per complete file (size, checksum), written with the run's final state: a file is
-- visible only once all its chunks are stored. Chunks of a run that does not complete are
-- deleted with its final state; purge deletes chunks with their run's result files.
-- Storage EXTERNAL: chunks are not compressed by TOAST (pglz took 0.3 s of the 0.45 s that
-- storing the 12.9 MB CSV of a nearby-cities run cost; Parquet is compressed already).
CREATE TABLE "result_file_chunk" (
    "runId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    CONSTRAINT "result_file_chunk_pkey" PRIMARY KEY ("runId","key","format","seq")
);
ALTER TABLE "result_file_chunk" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
ALTER TABLE "result_file_chunk" ADD CONSTRAINT "result_file_chunk_runId_fkey" FOREIGN KEY ("runId") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Files stored before this migration become one chunk each.
INSERT INTO "result_file_chunk" ("runId", "key", "format", "seq", "bytes")
SELECT "runId", "key", "format", 0, "content" FROM "result_file";
ALTER TABLE "result_file" DROP COLUMN "content";
