/**
 * The console's view of an environment's runs (published calls, mode `api`), newest first,
 * at most `limit` (default 50, at most 200), filtered by API, consumer, state and a time
 * window on the start (`from` inclusive, `to` exclusive). Each with its duration (ms, from
 * start to finish, or so far), the flow version it ran, its error code and message.
 */
import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TRunError } from "@/lib/runs/run-document";
import type { TRunState } from "@/lib/runs/run-state-names";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export interface TEnvironmentRunFilter {
  apiId?: string;
  consumerId?: string;
  state?: TRunState;
  from?: Date;
  to?: Date;
  limit?: number;
}

export async function listEnvironmentRuns(scope: TEnvironmentRef, filter: TEnvironmentRunFilter = {}) {
  const { apiId, consumerId, state, from, to } = filter;
  const rows = await db.run.findMany({
    // A filter left undefined is no filter (Prisma leaves out undefined values).
    where: { environmentId: scope.environmentId, mode: "api", flowApiId: apiId, consumerId, state, createdAt: { gte: from, lt: to } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(filter.limit ?? 50, 1), 200),
    select: ENVIRONMENT_RUN_SELECT,
  });
  return rows.map(environmentRun);
}

/** What the console shows of a run: the columns `environmentRun` reads. */
export const ENVIRONMENT_RUN_SELECT = {
  id: true,
  state: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  processingMs: true,
  error: true,
  flowApi: { select: { id: true, slug: true, name: true } },
  consumer: { select: { id: true, name: true } },
  flowVersion: { select: { version: true } },
} satisfies Prisma.RunSelect;

/** A run row read with `ENVIRONMENT_RUN_SELECT` as the console shows it. */
export function environmentRun(r: Prisma.RunGetPayload<{ select: typeof ENVIRONMENT_RUN_SELECT }>) {
  return {
    id: r.id,
    state: r.state,
    // An API run always has its API and version (only a designer's preview has neither).
    api: r.flowApi!,
    consumer: r.consumer,
    flowVersion: r.flowVersion!.version,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    durationMs: r.startedAt ? (r.finishedAt ?? new Date()).getTime() - r.startedAt.getTime() : null,
    processingMs: r.processingMs,
    // Written by finalizeRun only (lib/runs/run-state.ts): null or a run error.
    error: r.error as TRunError | null,
  };
}
