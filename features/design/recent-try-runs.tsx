"use client";
/**
 * "Your recent Try-it runs" on the API page, newest first. A run not yet final is polled until
 * it is, then the page's server data is refreshed (stored state and time without a reload).
 * Each row opens the run: state, times, progress, error and result downloads.
 */
import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { useQueries, useQuery } from "@tanstack/react-query";
import { DownloadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogHeading } from "@/components/ui/dialog";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { formatDuration, formatTime } from "@/features/console/format";
import { designRunQuery, isFinal } from "@/features/design/flow-run/queries";

export interface TRecentTryRun {
  id: string;
  state: string;
  flowVersion: number;
  createdAt: Date;
  processingMs: number | null;
}

export function RecentTryRuns({ organization, workspace, runs }: { organization: string; workspace: string; runs: TRecentTryRun[] }) {
  const router = useRouter();
  const [open, setOpen] = useState<string | null>(null);
  const pending = runs.filter((r) => !isFinal(r.state));
  const live = useQueries({ queries: pending.map((r) => designRunQuery({ organization, workspace, runId: r.id })) });
  const liveState = new Map(pending.map((r, i) => [r.id, live[i]?.data?.state]));
  const finishedMeanwhile = pending.some((r) => isFinal(liveState.get(r.id)));
  useEffect(() => {
    if (finishedMeanwhile) router.refresh();
  }, [finishedMeanwhile, router]);

  if (runs.length === 0) return <p className="text-sm text-muted-foreground">No Try-it runs yet.</p>;
  return (
    <>
      <div className="overflow-x-auto">
        <Table aria-label="Recent Try-it runs">
          <TableHeaderRow columns={["Started", "Flow version", "State", "Processing time"]} />
          <TableBody>
            {runs.map((r) => (
              <TableRow key={r.id}>
                <TableCell>
                  {/* Named by its date alone: a name with "run" in it would also answer to Try it's "Run" button. */}
                  <Button variant="link" className="h-auto p-0" onClick={() => setOpen(r.id)} aria-haspopup="dialog">
                    {formatTime(r.createdAt)}
                  </Button>
                </TableCell>
                <TableCell>v{r.flowVersion}</TableCell>
                <TableCell>{liveState.get(r.id) ?? r.state}</TableCell>
                <TableCell>{formatDuration(r.processingMs)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <Dialog open={open !== null} onOpenChange={(o) => !o && setOpen(null)}>
        <DialogContent className="max-h-[90vh] overflow-y-auto">
          {open ? <RunDetails organization={organization} workspace={workspace} runId={open} /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

function RunDetails(p: { organization: string; workspace: string; runId: string }) {
  const run = useQuery(designRunQuery(p));
  const doc = run.data;
  return (
    <>
      <DialogHeading
        title={<>Try-it run {doc ? doc.run_id.slice(0, 8) : ""}</>}
        description={doc ? `Flow version ${doc.flow_version}, started ${formatTime(doc.created_at)}.` : "Loading the run…"}
      />
      {run.error ? <p role="alert">{run.error.message}</p> : null}
      {doc ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">State</dt>
          <dd data-testid="try-run-state">{doc.state}</dd>
          <dt className="text-muted-foreground">Steps</dt>
          <dd>
            {doc.progress.steps_done} of {doc.progress.steps_total} done
          </dd>
          <dt className="text-muted-foreground">Finished</dt>
          <dd>{formatTime(doc.finished_at)}</dd>
          {doc.error ? (
            <>
              <dt className="text-muted-foreground">Error</dt>
              <dd>
                <code className="text-xs">{doc.error.code}</code> {doc.error.message}
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {doc?.results?.length ? (
        <ul className="grid gap-1 text-sm" aria-label="Results">
          {doc.results.map((r) => (
            <li key={r.key}>
              <a className="inline-flex items-center gap-1 underline underline-offset-4" href={r.href} download>
                <DownloadIcon aria-hidden="true" className="size-4" />
                {r.key} ({r.format}
                {r.feature_count !== undefined ? `, ${r.feature_count} features` : ""}
                {r.row_count !== undefined ? `, ${r.row_count} rows` : ""})
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
