/**
 * A result file of a completed run. The format is the run's requested one unless
 * `?format=` asks for the other format of the result's kind. AppError `conflict` when the run has not
 * completed; `not_found` for an unknown key; `validation_failed` for a format that does not
 * fit the kind.
 *
 * The worker writes the requested format with the run's final state and the other format right
 * after (lib/runs/execute-run.ts): a download of the other format that comes first waits for it,
 * up to `PENDING_FORMAT_WAIT_MS`, while the requested file is there (once both are purged, 404 at once).
 *
 * The bytes are read chunk by chunk (lib/runs/result-file-store.ts): `stream()` for downloads,
 * which never hold the whole file; `bytes()` for answers that inline a small file.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError, validationError } from "@/lib/errors";
import type { TRunScope } from "@/lib/runs/scope";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import { FORMAT_INFO, FORMATS_BY_KIND, type TResultFormat } from "@/lib/formats/types";
import { readResultFile, readResultFileBytes } from "@/lib/runs/result-file-store";

/** Longest a download waits for the format the worker writes after the run is final. */
const PENDING_FORMAT_WAIT_MS = 30_000;
const PENDING_FORMAT_POLL_MS = 150;

async function findFile(runId: string, key: string, format: string) {
  return db.resultFile.findUnique({ where: { runId_key_format: { runId, key, format } } });
}

/** A file's chunks as a web stream (pulled one chunk at a time). */
function chunkStream(runId: string, key: string, format: string, sizeBytes: number): ReadableStream<Uint8Array> {
  const chunks = readResultFile(runId, key, format, sizeBytes);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

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
      [{ field: "/query/format", code: "invalid_format", message: `Use one of: ${allowed.join(", ")}.` }],
      `Format "${chosen}" does not fit a ${result.kind} result.`,
    );
  }
  let file = await findFile(run.id, key, chosen);
  if (!file && chosen !== result.format) {
    const requested = await db.resultFile.findUnique({ where: { runId_key_format: { runId: run.id, key, format: result.format } }, select: { key: true } });
    const deadline = Date.now() + PENDING_FORMAT_WAIT_MS;
    while (requested && !file && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, PENDING_FORMAT_POLL_MS));
      file = await findFile(run.id, key, chosen);
    }
  }
  if (!file) throw new AppError("not_found", `The ${chosen} file of result "${key}" is no longer available.`);
  const info = FORMAT_INFO[chosen as TResultFormat];
  const found = file;
  return {
    file,
    filename: `${key}.${info.extension}`,
    mediaType: info.mediaType,
    /** The file's bytes as a stream, for a download. */
    stream: () => chunkStream(run.id, key, chosen, found.sizeBytes),
    /** The whole file (for small ones). */
    bytes: () => readResultFileBytes(run.id, key, chosen, found.sizeBytes),
  };
}

/**
 * Several result files of a run the caller already loaded through `getRunOrThrow` (so it is
 * visible to them), in one query: for answers that carry small results inline (MCP). Files
 * purged after their retention are simply absent from the answer.
 */
export async function getResultFileContents(
  runId: string,
  wanted: { key: string; format: string }[],
): Promise<{ key: string; format: string; content: Uint8Array }[]> {
  if (wanted.length === 0) return [];
  const files = await db.resultFile.findMany({
    where: { runId, OR: wanted.map((w) => ({ key: w.key, format: w.format })) },
    select: { key: true, format: true, sizeBytes: true },
  });
  return Promise.all(files.map(async (f) => ({ key: f.key, format: f.format, content: await readResultFileBytes(runId, f.key, f.format, f.sizeBytes) })));
}
