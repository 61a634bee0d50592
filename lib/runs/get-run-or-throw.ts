/**
 * Loads a run visible to `scope`: a key's consumer sees its own runs of that API in that
 * environment; a designer sees their own Try-it runs in that workspace. A run of anyone
 * else, of another API, or a malformed id is reported exactly like a missing one
 * (AppError `not_found`, same detail), so its existence cannot be told apart.
 */
import "server-only";
import { db } from "@/lib/db";
import { isUuid } from "@/lib/database/uuid";
import { AppError } from "@/lib/errors";
import type { TRunScope } from "@/lib/runs/scope";

export const RUN_INCLUDE = {
  results: true,
  files: { select: { key: true, format: true, sizeBytes: true } },
  flowVersion: { select: { version: true } },
} as const;

/** The Prisma filter of the runs `scope` may see. */
export function visibleRunsWhere(scope: TRunScope) {
  return scope.kind === "key"
    ? { consumerId: scope.consumerId, flowApiId: scope.flowApiId, environmentId: scope.environmentId }
    : { userId: scope.userId, workspaceId: scope.workspaceId, mode: "try" as const };
}

export async function getRunOrThrow(scope: TRunScope, runId: string) {
  const notFound = new AppError("not_found", scope.kind === "key" ? "No such run exists for your API key." : "No such run exists among your Try-it runs.");
  if (!isUuid(runId)) throw notFound;
  const run = await db.run.findFirst({ where: { id: runId, ...visibleRunsWhere(scope) }, include: RUN_INCLUDE });
  if (!run) throw notFound;
  return run;
}

export type TRunWithResults = Awaited<ReturnType<typeof getRunOrThrow>>;
