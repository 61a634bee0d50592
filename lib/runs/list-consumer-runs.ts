/**
 * A key's consumer's runs of several APIs of its environment, newest first (the OGC door's job
 * list: one list over every process the key may run), optionally only those in `states`, a
 * page of `limit` at a time by the run lists' keyset cursor (lib/runs/list-runs.ts). Each with
 * its API's slug and flow version, for the run document (lib/runs/run-document.ts).
 */
import "server-only";
import { db } from "@/lib/db";
import { keysetPage, type TListRunsQuery } from "@/lib/runs/list-runs";
import type { TRunState } from "@/lib/runs/run-state-names";

export async function listConsumerRuns(
  consumerId: string,
  environmentId: string,
  flowApiIds: string[],
  query: Pick<TListRunsQuery, "limit" | "cursor"> & { states?: TRunState[] },
) {
  const keyset = keysetPage(query);
  const rows = await db.run.findMany({
    where: { consumerId, environmentId, mode: "api", flowApiId: { in: flowApiIds }, ...(query.states ? { state: { in: query.states } } : {}), ...keyset.after },
    orderBy: keyset.orderBy,
    take: keyset.take,
    include: { flowVersion: { select: { version: true } }, flowApi: { select: { slug: true } } },
  });
  const { page, nextCursor } = keyset.page(rows);
  return { runs: page.map((r) => ({ ...r, api: r.flowApi!.slug, version: r.flowVersion?.version ?? 0 })), nextCursor };
}
