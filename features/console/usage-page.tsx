/**
 * `/console/{org}/{env}/usage`: the metering of the last 30 UTC days (lib/metering/usage-report.ts):
 * per workspace its plan's limits and use and its billed ETL runs, processing time and API
 * requests per day (chart and totals); this environment's share per API and per consumer;
 * refused calls by reason (never billed).
 */
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle, TitledCard } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { PageHeader } from "@/features/shell/page-header";
import { consolePath } from "@/features/shell/routes";
import { usageReport, type TUsageRow } from "@/lib/metering/usage-report";
import { consolePage } from "@/features/console/data";
import { formatDuration, REFUSAL_REASONS } from "@/features/console/format";
import { UsageChart } from "@/features/console/usage-chart";
import type { TConsoleParams } from "@/features/console/console-layout";
import { consoleTitle } from "@/features/shell/page-title";

export async function generateMetadata({ params }: { params: Promise<TConsoleParams> }) {
  return consoleTitle(await params, "usage");
}

export default async function UsagePage({ params }: { params: Promise<TConsoleParams> }) {
  const p = await params;
  const { scope, ref, organization, environment } = await consolePage(consolePath(p.organization, p.environment, "usage"), p);
  const report = await usageReport({ ...ref, organization, environment });
  return (
    <>
      <PageHeader title="Usage" description={`Metering from ${report.from} to ${report.to} (UTC days). Environment ${scope.environment.name}.`} />
      <div className="grid gap-8">
        {report.workspaces.map((w) => (
          <section key={w.id} aria-labelledby={`ws-${w.id}`} className="grid gap-4">
            <h2 id={`ws-${w.id}`} className="text-lg font-semibold">
              Workspace {w.name}
            </h2>
            <div className="grid gap-4 md:grid-cols-4">
              <Stat label="ETL runs" value={w.totals.etlRuns.toLocaleString("en")} testId="usage-etl-runs" />
              <Stat label="Processing time" value={formatDuration(w.totals.processingMs)} testId="usage-processing" />
              <Stat label="API requests" value={w.totals.apiRequests.toLocaleString("en")} testId="usage-api-requests" />
              <Card>
                <CardHeader>
                  <CardDescription>Plan {w.plan.name}</CardDescription>
                  <CardTitle className="text-base">
                    <span data-testid="plan-apis">
                      {w.flowApis} of {w.plan.maxFlowApis} APIs
                    </span>
                  </CardTitle>
                </CardHeader>
                <CardContent className="text-sm">
                  AI access: {w.plan.aiAccess ? <Badge variant="success">Yes</Badge> : <Badge variant="outline">No</Badge>}
                  <div className="mt-1 text-muted-foreground">{w.plan.rateLimitPerMinute} calls per minute per key</div>
                </CardContent>
              </Card>
            </div>
            <TitledCard title="Per day" description="Billed to the workspace: runs and requests of all its environments and Try it.">
              <UsageChart days={w.days} label={`API requests and ETL runs per day, workspace ${w.name}`} />
            </TitledCard>
          </section>
        ))}
        <div className="grid gap-6 lg:grid-cols-2">
          <Breakdown title="Per API" rows={report.perApi} empty="No calls to this environment's APIs yet." />
          <Breakdown title="Per consumer" rows={report.perConsumer} empty="No calls by this environment's consumers yet." />
        </div>
        <TitledCard title="Refused calls" description="Calls to this environment that were refused. They count as neither an ETL run nor an API request.">
          {report.refused.length === 0 ? (
            <p className="text-sm text-muted-foreground">No refused calls.</p>
          ) : (
            <Table>
              <TableHeaderRow columns={["Status", "Reason", ["Calls", "text-right"]]} />
              <TableBody>
                {report.refused.map((r) => (
                  <TableRow key={r.status} data-testid={`refused-${r.status}`}>
                    <TableCell className="tabular-nums">{r.status}</TableCell>
                    <TableCell>{REFUSAL_REASONS[r.status] ?? "Other"}</TableCell>
                    <TableCell className="text-right tabular-nums">{r.count.toLocaleString("en")}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </TitledCard>
      </div>
    </>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card>
      <CardHeader>
        <CardDescription>{label}</CardDescription>
        <CardTitle className="text-2xl tabular-nums" data-testid={testId}>
          {value}
        </CardTitle>
      </CardHeader>
    </Card>
  );
}

function Breakdown({ title, rows, empty }: { title: string; rows: TUsageRow[]; empty: string }) {
  return (
    <TitledCard title={title} description="This environment's share.">
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <Table>
          <TableHeaderRow columns={["Name", ["ETL runs", "text-right"], ["Processing", "text-right"], ["API requests", "text-right"]]} />
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.id}>
                <TableCell>{r.name}</TableCell>
                <TableCell className="text-right tabular-nums">{r.etlRuns.toLocaleString("en")}</TableCell>
                <TableCell className="text-right tabular-nums">{formatDuration(r.processingMs)}</TableCell>
                <TableCell className="text-right tabular-nums">{r.apiRequests.toLocaleString("en")}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </TitledCard>
  );
}
