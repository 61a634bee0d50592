/**
 * The console's usage page for one environment over the last 30 UTC days (today included):
 * - `workspaces`: each workspace whose APIs this environment serves (else every workspace of
 *   the organization), with its plan's limits and use (Flow APIs of the plan's maximum,
 *   drafts included; AI access yes/no) and its billed metering per day: ETL runs,
 *   processing time (ms) and API requests from `usage_counter` (spec "Metering"; the
 *   counters the public API's tests check). These are workspace totals: Try-it runs and
 *   other environments included.
 * - `perApi` / `perConsumer`: this environment's share: ETL runs and processing time of the
 *   runs started through its APIs (the `run` rows that metering counted; runs are never
 *   deleted) and its API requests (the 2xx rows of `call_counter`).
 * - `refused`: calls refused in this environment by status (401, 403, 404, 413, 415, 422,
 *   429 ...), from `call_counter`; never billed.
 */
import "server-only";
import { db } from "@/lib/db";
import { flushCallCounter } from "@/lib/metering/call-counter";

export interface TUsageTotals {
  etlRuns: number;
  processingMs: number;
  apiRequests: number;
}

export interface TUsageDay extends TUsageTotals {
  day: string; // YYYY-MM-DD (UTC)
}

export interface TUsageRow extends TUsageTotals {
  id: string;
  slug: string;
  name: string;
}

export type TUsageReport = Awaited<ReturnType<typeof usageReport>>;

const dayString = (d: Date) => d.toISOString().slice(0, 10);

/** `scope`: the environment (ids and slugs), as lib/runs/scope.ts `TEnvironmentRef` plus slugs (not imported: lib/runs depends on lib/metering). */
export async function usageReport(scope: { organizationId: string; environmentId: string; organization: string; environment: string }) {
  const days = 30;
  const today = new Date(`${dayString(new Date())}T00:00:00Z`);
  const from = new Date(today.getTime() - (days - 1) * 86_400_000);

  const served = await db.environmentApi.findMany({ where: { environmentId: scope.environmentId }, select: { flowApi: { select: { workspaceId: true } } } });
  const servedWorkspaceIds = [...new Set(served.map((s) => s.flowApi.workspaceId))];
  const workspaces = await db.workspace.findMany({
    where: servedWorkspaceIds.length ? { id: { in: servedWorkspaceIds } } : { organizationId: scope.organizationId },
    include: {
      plan: { select: { id: true, name: true, maxFlowApis: true, aiAccess: true, rateLimitPerMinute: true } },
      _count: { select: { flowApis: { where: { deletedAt: null } } } },
    },
    orderBy: { name: "asc" },
  });

  const counterRows = await db.$queryRaw<{ workspaceId: string; day: Date; etl: bigint; ms: bigint; req: bigint }[]>`
    SELECT "workspaceId", "day", sum("etlRuns") AS etl, sum("processingMs") AS ms, sum("apiRequests") AS req
    FROM "usage_counter"
    WHERE "workspaceId" = ANY(${workspaces.map((w) => w.id)}::uuid[]) AND "day" >= ${from}::date
    GROUP BY "workspaceId", "day"`;

  const workspaceUsage = workspaces.map((w) => {
    const byDay = new Map(counterRows.filter((r) => r.workspaceId === w.id).map((r) => [dayString(r.day), r]));
    const series: TUsageDay[] = [];
    for (let t = from.getTime(); t <= today.getTime(); t += 86_400_000) {
      const day = dayString(new Date(t));
      const r = byDay.get(day);
      series.push({ day, etlRuns: Number(r?.etl ?? 0), processingMs: Number(r?.ms ?? 0), apiRequests: Number(r?.req ?? 0) });
    }
    const sum = (k: keyof TUsageTotals) => series.reduce((n, d) => n + d[k], 0);
    return {
      id: w.id,
      slug: w.slug,
      name: w.name,
      plan: w.plan,
      flowApis: w._count.flowApis,
      days: series,
      totals: { etlRuns: sum("etlRuns"), processingMs: sum("processingMs"), apiRequests: sum("apiRequests") },
    };
  });

  // Runs of this environment's APIs: the ETL runs and processing time that metering counted.
  const runRows = await db.$queryRaw<{ flowApiId: string; consumerId: string | null; runs: bigint; ms: bigint | null }[]>`
    SELECT "flowApiId", "consumerId", count(*) AS runs, sum("processingMs") AS ms
    FROM "run"
    WHERE "environmentId" = ${scope.environmentId}::uuid AND "mode" = 'api' AND "createdAt" >= ${from}
    GROUP BY "flowApiId", "consumerId"`;
  await flushCallCounter(); // this process's own recent calls, so a page sees what it just did
  const callRows = await db.$queryRaw<{ api: string; consumerId: string; status: number; count: bigint }[]>`
    SELECT "api", "consumerId", "status", sum("count") AS count
    FROM "call_counter"
    WHERE "organization" = ${scope.organization} AND "environment" = ${scope.environment} AND "day" >= ${from}::date
    GROUP BY "api", "consumerId", "status"`;

  const apis = await db.flowApi.findMany({ where: { organizationId: scope.organizationId }, select: { id: true, slug: true, name: true, deletedAt: true } });
  const consumers = await db.consumer.findMany({ where: { environmentId: scope.environmentId }, select: { id: true, slug: true, name: true } });
  // Calls are counted by slug; a deleted API may share its slug with a live one, which takes them.
  const apiBySlug = new Map([...apis].sort((a, b) => Number(b.deletedAt !== null) - Number(a.deletedAt !== null)).map((a) => [a.slug, a]));

  const perApi = new Map<string, TUsageRow>();
  const perConsumer = new Map<string, TUsageRow>();
  const rowOf = (rows: Map<string, TUsageRow>, x: Pick<TUsageRow, "id" | "slug" | "name"> | undefined) =>
    x && (rows.get(x.id) ?? rows.set(x.id, { id: x.id, slug: x.slug, name: x.name, etlRuns: 0, processingMs: 0, apiRequests: 0 }).get(x.id)!);
  const apiById = new Map(apis.map((a) => [a.id, a]));
  const consumerById = new Map(consumers.map((c) => [c.id, c]));

  for (const r of runRows) {
    for (const row of [rowOf(perApi, apiById.get(r.flowApiId)), rowOf(perConsumer, consumerById.get(r.consumerId ?? ""))]) {
      if (!row) continue;
      row.etlRuns += Number(r.runs);
      row.processingMs += Number(r.ms ?? 0);
    }
  }
  const refused = new Map<number, number>();
  for (const r of callRows) {
    const n = Number(r.count);
    if (r.status !== 200) refused.set(r.status, (refused.get(r.status) ?? 0) + n);
    else for (const row of [rowOf(perApi, apiBySlug.get(r.api)), rowOf(perConsumer, consumerById.get(r.consumerId))]) if (row) row.apiRequests += n;
  }
  const refusedRows = [...refused.entries()].map(([status, count]) => ({ status, count })).sort((a, b) => a.status - b.status);
  const byName = (a: TUsageRow, b: TUsageRow) => a.name.localeCompare(b.name);
  return {
    from: dayString(from),
    to: dayString(today),
    workspaces: workspaceUsage,
    perApi: [...perApi.values()].sort(byName),
    perConsumer: [...perConsumer.values()].sort(byName),
    refused: refusedRows,
    refusedTotal: refusedRows.reduce((s, r) => s + r.count, 0),
  };
}
