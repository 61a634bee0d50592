/**
 * A key's consumer's runs of several APIs of its environment, newest first, at most `limit`
 * (the OGC door's job list: one list over every process the key may run). Each with its API's
 * slug and flow version, for the run document (lib/runs/run-document.ts).
 */
import "server-only";
import { db } from "@/lib/db";

export async function listConsumerRuns(consumerId: string, environmentId: string, flowApiIds: string[], limit: number) {
  const rows = await db.run.findMany({
    where: { consumerId, environmentId, mode: "api", flowApiId: { in: flowApiIds } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    include: { flowVersion: { select: { version: true } }, flowApi: { select: { slug: true } } },
  });
  return rows.map((r) => ({ ...r, api: r.flowApi!.slug, version: r.flowVersion?.version ?? 0 }));
}
