/** `/console/{org}/{env}/runs/{runId}`: one run: state, timing, flow version, request (caller data removed once final), results, error. */
import Link from "next/link";
import { orNotFound } from "@/lib/auth/page-guard";
import { Badge } from "@/components/ui/badge";
import { TitledCard } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { PageHeader } from "@/features/shell/page-header";
import { consolePath } from "@/features/shell/routes";
import { consolePage, environmentRunOf } from "@/features/console/data";
import { formatDuration, formatTime } from "@/features/console/format";
import { STATE_VARIANT } from "@/features/console/runs-page";
import type { TConsoleParams } from "@/features/console/console-layout";
import { consoleTitle } from "@/features/shell/page-title";

type TRunParams = TConsoleParams & { runId: string };

export async function generateMetadata({ params }: { params: Promise<TRunParams> }) {
  const p = await params;
  return consoleTitle(p, "runs", async (scope) => `Run ${(await environmentRunOf(scope.organizationId, scope.environment.id, p.runId)).id.slice(0, 8)}`);
}

export default async function RunDetailPage({ params }: { params: Promise<TRunParams> }) {
  const p = await params;
  const base = consolePath(p.organization, p.environment, "runs");
  const { ref } = await consolePage(`${base}/${p.runId}`, p);
  const run = await orNotFound(environmentRunOf(ref.organizationId, ref.environmentId, p.runId));
  const final = run.state === "completed" || run.state === "failed" || run.state === "cancelled";
  return (
    <>
      <PageHeader
        title={`Run ${run.id.slice(0, 8)}`}
        description={
          <>
            {run.api.name} · {run.consumer?.name ?? "unknown consumer"} ·{" "}
            <Link className="underline underline-offset-4" href={base}>
              All runs
            </Link>
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <TitledCard title="Run">
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Run id</dt>
            <dd className="font-mono text-xs">{run.id}</dd>
            <dt className="text-muted-foreground">State</dt>
            <dd>
              <Badge variant={STATE_VARIANT[run.state]}>{run.state}</Badge>
            </dd>
            <dt className="text-muted-foreground">Flow version</dt>
            <dd>v{run.flowVersion}</dd>
            <dt className="text-muted-foreground">Created</dt>
            <dd>{formatTime(run.createdAt)}</dd>
            <dt className="text-muted-foreground">Finished</dt>
            <dd>{formatTime(run.finishedAt)}</dd>
            <dt className="text-muted-foreground">Duration</dt>
            <dd>{formatDuration(run.durationMs)}</dd>
            <dt className="text-muted-foreground">Processing time</dt>
            <dd>{formatDuration(run.processingMs)}</dd>
          </dl>
          {run.error ? (
            <div role="alert" className="mt-4 rounded-md border border-destructive/50 p-3 text-sm">
              <div className="font-medium">Error {run.error.code}</div>
              <div>{run.error.message}</div>
            </div>
          ) : null}
        </TitledCard>
        <TitledCard title="Results">
          {run.results.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {run.state === "completed" ? "The run produced no results." : "Results are listed once the run has completed."}
            </p>
          ) : (
            <Table>
              <TableHeaderRow columns={["Key", "Kind", "Format", ["Items", "text-right"], ["Size", "text-right"]]} />
              <TableBody>
                {run.results.map((r) => (
                  <TableRow key={r.key}>
                    <TableCell className="font-mono text-xs">{r.key}</TableCell>
                    <TableCell>{r.kind}</TableCell>
                    <TableCell>{r.format}</TableCell>
                    <TableCell className="text-right tabular-nums">{(r.featureCount ?? r.rowCount ?? 0).toLocaleString("en")}</TableCell>
                    <TableCell className="text-right tabular-nums">{r.sizeBytes === null ? "expired" : `${(r.sizeBytes / 1024).toFixed(1)} KiB`}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </TitledCard>
        <TitledCard
          className="lg:col-span-2"
          title="Request"
          description={final ? "Caller data (features, rows, areas) was removed when the run finished; what remains is shown." : "As validated."}
        >
          <pre tabIndex={0} aria-label="Request body" className="max-h-96 overflow-auto rounded-md bg-muted p-3 text-xs">
            {JSON.stringify({ request: run.request, formats: run.formats }, null, 2)}
          </pre>
        </TitledCard>
      </div>
    </>
  );
}
