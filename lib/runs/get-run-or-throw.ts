/**
 * Loads a run of the calling consumer. A run of anyone else, of another API, or a
 * malformed id is reported exactly like a missing one (404), on every run endpoint.
 */
import "server-only";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/api/errors";
import type { TCaller } from "@/lib/api/resolve-caller";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const RUN_INCLUDE = {
  results: true,
  files: { select: { key: true, format: true, sizeBytes: true } },
  flowVersion: { select: { version: true } },
} as const;

export async function getRunOrThrow(caller: TCaller, runId: string) {
  // The same detail for every unknown id, so a run of another consumer cannot be told apart.
  const notFound = new ApiError("not_found", "No such run exists for your API key.");
  if (!UUID.test(runId)) throw notFound;
  const run = await db.run.findFirst({
    where: { id: runId, consumerId: caller.consumerId, flowApiId: caller.flowApiId, environmentId: caller.environmentId },
    include: RUN_INCLUDE,
  });
  if (!run) throw notFound;
  return run;
}
