/**
 * Where a run's files live in the blob store, and how an engine result becomes one:
 * `runs/<run id>/<result key>/<format>` for each file written with the run,
 * `runs/<run id>/<result key>/<format>.<uuid>` for a format made later (job "result-format":
 * two workers may make the same one at once; each writes its own object and the one whose row
 * is inserted first wins, so a served file is never overwritten while it is read), and
 * `runs/<run id>/<result key>/copy` for the result's lossless copy (lib/runs/result-spill.ts).
 * Everything of a run lies under `runs/<run id>/`, so removing a run's files is one prefix.
 *
 * `writeResultFile` streams the encoder's chunks into the store as they are written
 * (lib/blobs/byte-channel.ts; multipart on S3), within the run's byte budget: a file that
 * passes it stops at once with `ResourceLimitError` and leaves no object behind.
 */
import { blobStore } from "@/lib/blobs";
import type { TEngineResult } from "@/lib/engine/types";
import { ResourceLimitError } from "@/lib/errors";
import { encodeResult } from "@/lib/formats/encode-result";
import type { TByteBudget } from "@/lib/layers/parse";
import { FORMAT_INFO, type TResultFormat } from "@/lib/formats/registry";
import { byteChannel } from "@/lib/blobs/byte-channel";
import { spillFrames } from "@/lib/runs/result-spill";
import type { TWrittenFile } from "@/lib/runs/run-task";

export const runPrefix = (runId: string) => `runs/${runId}/`;
export const resultFileKey = (runId: string, key: string, format: TResultFormat) => `${runPrefix(runId)}${key}/${format}`;

/** Bytes the files of one run may still take, of `limit`. */
export interface TResultBudget extends TByteBudget {
  limit: number;
}

/** Encodes `result` in `format` into the blob store under the run's prefix. */
export async function writeResultFile(
  runId: string,
  result: TEngineResult,
  format: TResultFormat,
  budget: TResultBudget,
  signal: AbortSignal,
  /** Where to write it; default `resultFileKey(runId, result.key, format)`. */
  blobKey: string = resultFileKey(runId, result.key, format),
): Promise<TWrittenFile> {
  const channel = byteChannel();
  const stored = blobStore().put(blobKey, channel.chunks(), { contentType: FORMAT_INFO[format].mediaType, signal });
  stored.catch((err: unknown) => channel.abandon(err));
  try {
    await encodeResult(result, format, {
      signal,
      pace: channel.pace,
      alloc: channel.alloc,
      sink: (bytes) => {
        budget.bytesLeft -= bytes.byteLength;
        if (budget.bytesLeft < 0) {
          const mb = `${Math.round(budget.limit / (1024 * 1024))} MB`;
          const why = `The run's result files exceed ${mb}; narrow the request (fewer rows, a smaller radius or area, a higher threshold).`;
          throw new ResourceLimitError(why, `result size ${mb}`);
        }
        channel.push(bytes);
      },
    });
    channel.close();
  } catch (err) {
    channel.fail(err);
    await stored.catch(() => {});
    throw err;
  }
  const info = await stored;
  return { key: result.key, format, blobKey, sizeBytes: info.sizeBytes, sha256: info.sha256 };
}

/** Writes the result's lossless copy; returns its blob key. */
export async function writeResultCopy(runId: string, result: TEngineResult, signal: AbortSignal): Promise<string> {
  const key = `${runPrefix(runId)}${result.key}/copy`;
  await blobStore().put(key, spillFrames(result, signal), { contentType: "application/octet-stream", signal });
  return key;
}
