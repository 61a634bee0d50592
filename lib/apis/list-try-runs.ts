/**
 * The designer's recent Try-it runs of one Flow API (newest first, at most 10), for
 * the API page. Only the designer's own runs (a Try-it run is visible to its designer only).
 */
import "server-only";
import { db } from "@/lib/db";
import type { TDesignerScope } from "@/lib/runs/scope";

export async function listTryRuns(scope: TDesignerScope, flowApiId: string) {
  const runs = await db.run.findMany({
    where: { flowApiId, userId: scope.userId, workspaceId: scope.workspaceId, mode: "try" },
    orderBy: { createdAt: "desc" },
    take: 10,
    include: { flowVersion: { select: { version: true } }, results: { select: { key: true, kind: true, format: true } } },
  });
  return runs.map((r) => ({
    id: r.id,
    state: r.state,
    flowVersion: r.flowVersion?.version ?? 0,
    createdAt: r.createdAt,
    processingMs: r.processingMs,
    stepsDone: r.stepsDone,
    stepsTotal: r.stepsTotal,
    results: r.results,
  }));
}
