/**
 * `/console/{org}/{env}/runs`: the environment's runs, newest first, filtered by API,
 * consumer, state and start time (a plain GET form: works without JavaScript and from the
 * keyboard); each links to its detail.
 */
import Link from "next/link";
import { ListChecksIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { EmptyState } from "@/features/shell/empty-state";
import { PageHeader } from "@/features/shell/page-header";
import { consolePath } from "@/features/shell/routes";
import { listConsumers } from "@/lib/consumers/list-consumers";
import { listEnvironmentRuns } from "@/lib/runs/list-environment-runs";
import { RUN_STATES, type TRunState } from "@/lib/runs/run-state-names";
import { listServedApis } from "@/lib/serving/list-served-apis";
import { consolePage } from "@/features/console/data";
import { formatDuration, formatTime } from "@/features/console/format";
import type { TConsoleParams } from "@/features/console/console-layout";
import { consoleTitle } from "@/features/shell/page-title";

export async function generateMetadata({ params }: { params: Promise<TConsoleParams> }) {
  return consoleTitle(await params, "runs");
}

type TSearch = { api?: string; consumer?: string; state?: string; from?: string; to?: string };

export const STATE_VARIANT: Record<TRunState, "success" | "destructive" | "outline" | "secondary" | "warning"> = {
  queued: "secondary",
  running: "warning",
  completed: "success",
  failed: "destructive",
  cancelled: "outline",
};

const dateOf = (s: string | undefined, endOfDay = false) =>
  s && /^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T00:00:00Z`).getTime() + (endOfDay ? 86_400_000 : 0) : null;
const UUID = /^[0-9a-f-]{36}$/i;

export default async function RunsPage({ params, searchParams }: { params: Promise<TConsoleParams>; searchParams: Promise<TSearch> }) {
  const p = await params;
  const q = await searchParams;
  const { scope, ref, organization, environment } = await consolePage(consolePath(p.organization, p.environment, "runs"), p);
  const from = dateOf(q.from);
  const to = dateOf(q.to, true);
  const state = RUN_STATES.includes(q.state as TRunState) ? (q.state as TRunState) : undefined;
  const [runs, apis, consumers] = await Promise.all([
    listEnvironmentRuns(ref, {
      apiId: q.api && UUID.test(q.api) ? q.api : undefined,
      consumerId: q.consumer && UUID.test(q.consumer) ? q.consumer : undefined,
      state,
      from: from ? new Date(from) : undefined,
      to: to ? new Date(to) : undefined,
      limit: 100,
    }),
    listServedApis(ref),
    listConsumers(ref),
  ]);
  const filtered = Boolean(q.api || q.consumer || state || from || to);
  const base = consolePath(organization, environment, "runs");
  return (
    <>
      <PageHeader title="Runs" description={`Published calls to environment ${scope.environment.name}, newest first (at most 100).`} />
      <form method="get" action={base} className="mb-6 flex flex-wrap items-end gap-3" aria-label="Filter runs">
        <FormField id="filter-api" label="API" className="gap-1.5">
          <NativeSelect name="api" defaultValue={q.api ?? ""} className="w-48">
            <option value="">All APIs</option>
            <SelectOptions options={apis.map((a) => ({ value: a.flowApiId, label: a.name }))} />
          </NativeSelect>
        </FormField>
        <FormField id="filter-consumer" label="Consumer" className="gap-1.5">
          <NativeSelect name="consumer" defaultValue={q.consumer ?? ""} className="w-48">
            <option value="">All consumers</option>
            <SelectOptions options={consumers.map((c) => ({ value: c.id, label: c.name }))} />
          </NativeSelect>
        </FormField>
        <FormField id="filter-state" label="State" className="gap-1.5">
          <NativeSelect name="state" defaultValue={state ?? ""} className="w-36">
            <option value="">Any state</option>
            <SelectOptions options={RUN_STATES.map((s) => ({ value: s, label: s }))} />
          </NativeSelect>
        </FormField>
        <FormField id="filter-from" label="Started from" className="gap-1.5">
          <Input name="from" type="date" defaultValue={q.from ?? ""} className="w-40" />
        </FormField>
        <FormField id="filter-to" label="Started until" className="gap-1.5">
          <Input name="to" type="date" defaultValue={q.to ?? ""} className="w-40" />
        </FormField>
        <Button type="submit">Filter</Button>
        {filtered ? (
          <Button asChild variant="ghost">
            <Link href={base}>Clear filters</Link>
          </Button>
        ) : null}
      </form>
      {runs.length === 0 ? (
        <EmptyState
          icon={ListChecksIcon}
          title={filtered ? "No runs match these filters" : "No runs yet"}
          description={filtered ? "Widen the filters or clear them." : "Runs appear here as soon as a consumer calls an API of this environment."}
        />
      ) : (
        <Table>
          <TableHeaderRow columns={["Run", "API", "Consumer", "State", "Started", ["Duration", "text-right"], ["Flow version", "text-right"], "Error"]} />
          <TableBody>
            {runs.map((r) => (
              <TableRow key={r.id}>
                <TableCell>
                  <Link className="font-mono text-xs underline underline-offset-4" href={`${base}/${r.id}`}>
                    {r.id.slice(0, 8)}
                    <span className="sr-only"> (run details)</span>
                  </Link>
                </TableCell>
                <TableCell>{r.api.name}</TableCell>
                <TableCell>{r.consumer?.name ?? "—"}</TableCell>
                <TableCell>
                  <Badge variant={STATE_VARIANT[r.state]}>{r.state}</Badge>
                </TableCell>
                <TableCell>{formatTime(r.createdAt)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatDuration(r.durationMs)}</TableCell>
                <TableCell className="text-right tabular-nums">v{r.flowVersion}</TableCell>
                <TableCell className="max-w-64 truncate text-sm">{r.error ? `${r.error.code}: ${r.error.message}` : ""}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}
