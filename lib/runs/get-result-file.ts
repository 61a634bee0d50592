/**
 * Result files of completed runs, their bytes read from the blob store (lib/blobs). The requested
 * format of each result is written with the run. Another format is made on first request from
 * the result's lossless copy (job "result-format", lib/runs/make-result-format.ts): the download
 * enqueues it and waits for it up to `FORMAT_WAIT_MS` (woken by the job's `result_format`
 * notification, lib/runs/run-events.ts), then answers 503 with Retry-After, never
 * a 404 for a file that can still be made, and never a wait on a write that already failed (each
 * wait enqueues the job again; a format whose making passed a limit, its file's size or the
 * memory or time a run may take, answers 422 at once, from its `result_format_failure` row).
 */
import "server-only";
import { ReadableStream as WebStream } from "node:stream/web";
import { blobStore } from "@/lib/blobs";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, validationError } from "@/lib/errors";
import { enqueue } from "@/lib/jobs/boss";
import { resultFormatId, waitForResultFormat } from "@/lib/runs/run-events";
import type { TRunScope } from "@/lib/runs/scope";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import { FORMAT_INFO, FORMATS_BY_KIND, type TResultFormat } from "@/lib/formats/registry";

/** Longest a download waits for a format being made before it answers 503. */
const FORMAT_WAIT_MS = 30_000;
/** How often a download waiting for a format asks the database, should a notification be lost. */
const FORMAT_CHECK_MS = 1_000;
/** Presigned download URLs live this long. */
const PRESIGNED_SECONDS = 300;

async function findFile(runId: string, key: string, format: string) {
  return db.resultFile.findUnique({ where: { runId_key_format: { runId, key, format } } });
}

async function findFailure(runId: string, key: string, format: string) {
  return db.resultFormatFailure.findUnique({ where: { runId_key_format: { runId, key, format } } });
}

/** The answer to a download of a format whose making passed a limit (`limit`: "result size 200 MB", "memory 256 MB", "run time 20 s"). */
function overLimit(key: string, format: string, limit: string, written: string): AppError {
  return validationError(
    [{ field: "/format", code: "format_over_limit", message: `The ${format} file of this result cannot be made within the limit "${limit}"; use ${written}.` }],
    `The ${format} file of result "${key}" cannot be made: making it passed the limit "${limit}" of a run. Download the ${written} file written with the run, or narrow the request.`,
  );
}

/**
 * Enqueues the job that makes `format` of a result, then waits for its file; AppError
 * `validation_failed` when making that format passed a limit, `service_unavailable`
 * when it is not made within `FORMAT_WAIT_MS`.
 */
async function makeFormat(runId: string, key: string, format: TResultFormat, written: string) {
  await db.$transaction((tx) => enqueue(tx, "result-format", { runId, key, format }, { singletonKey: resultFormatId({ runId, key, format }) }));
  const settled = async () => (await findFile(runId, key, format)) !== null || (await findFailure(runId, key, format)) !== null;
  if (await waitForResultFormat({ runId, key, format }, FORMAT_WAIT_MS, settled, FORMAT_CHECK_MS)) {
    const file = await findFile(runId, key, format);
    if (file) return file;
    const failed = await findFailure(runId, key, format);
    if (failed) throw overLimit(key, format, failed.limit, written);
  }
  throw new AppError("service_unavailable", `The ${format} file of result "${key}" is still being made; try again shortly.`, { retryAfterSeconds: 5 });
}

/**
 * Result `key` of the run, in the run's requested format unless `format` (`?format=`) asks for
 * the other format of the result's kind. AppError `conflict` when the run has not completed;
 * `not_found` for an unknown key or a file past retention; `validation_failed` for a format that
 * does not fit the kind (`invalid_format`) or whose making passed a limit
 * (`format_over_limit`); `service_unavailable` (with Retry-After) while the format is being made.
 */
export async function getResultFile(scope: TRunScope, runId: string, key: string, format: string | null) {
  const run = await getRunOrThrow(scope, runId);
  if (run.state !== "completed") {
    throw new AppError("conflict", `Run ${runId} is ${run.state}; results exist only for completed runs.`);
  }
  const result = run.results.find((r) => r.key === key);
  if (!result) throw new AppError("not_found", `Run ${runId} has no result "${key}".`);
  const allowed: readonly string[] = FORMATS_BY_KIND[result.kind];
  const chosen = format ?? result.format;
  if (!allowed.includes(chosen)) {
    throw validationError(
      [{ field: "/format", code: "invalid_format", message: `Use one of: ${allowed.join(", ")}.` }],
      `Format "${chosen}" does not fit a ${result.kind} result.`,
    );
  }
  let file = await findFile(run.id, key, chosen);
  if (!file && chosen !== result.format) {
    const copy = await db.runResult.findUnique({
      where: { runId_key: { runId: run.id, key } },
      select: { spillKey: true, formatFailures: { where: { format: chosen }, select: { limit: true } } },
    });
    if (copy?.spillKey) {
      const failed = copy.formatFailures[0];
      if (failed) throw overLimit(key, chosen, failed.limit, result.format);
      file = await makeFormat(run.id, key, chosen as TResultFormat, result.format);
    }
  }
  if (!file?.blobKey) throw new AppError("not_found", `The ${chosen} file of result "${key}" is no longer available.`);
  const info = FORMAT_INFO[chosen as TResultFormat];
  const blobKey = file.blobKey;
  const filename = `${key}.${info.extension}`;
  return {
    file: { ...file, sizeBytes: Number(file.sizeBytes) },
    filename,
    mediaType: info.mediaType,
    /** The file's bytes (or bytes [start, end)) as a stream, for a download. */
    stream: (range?: { start: number; end: number }) => WebStream.from(blobStore().stream(blobKey, range)) as ReadableStream<Uint8Array>,
    /** The whole file (for small ones). */
    bytes: () => blobStore().getRange(blobKey, 0, Number(file.sizeBytes)),
    /** A short-lived URL of the file in the bucket, when downloads are redirected there (S3 with `S3_PRESIGN_DOWNLOADS`). */
    presignedUrl: async () =>
      env().S3_PRESIGN_DOWNLOADS ? blobStore().presignedGetUrl(blobKey, { filename, contentType: info.mediaType, expiresSeconds: PRESIGNED_SECONDS }) : null,
  };
}

/**
 * Several result files of a run the caller already loaded through `getRunOrThrow` (so it is
 * visible to them), for answers that carry small results inline (MCP). Files purged after
 * their retention are simply absent from the answer.
 */
export async function getResultFileContents(
  runId: string,
  wanted: { key: string; format: string }[],
): Promise<{ key: string; format: string; content: Uint8Array }[]> {
  if (wanted.length === 0) return [];
  const files = await db.resultFile.findMany({
    where: { runId, blobKey: { not: null }, OR: wanted.map((w) => ({ key: w.key, format: w.format })) },
    select: { key: true, format: true, sizeBytes: true, blobKey: true },
  });
  return Promise.all(files.map(async (f) => ({ key: f.key, format: f.format, content: await blobStore().getRange(f.blobKey!, 0, Number(f.sizeBytes)) })));
}
