"use client";
/** A run's progress as Try it and the flow preview show it: a state badge with "n of m steps done", and a bar of the steps done. */
import { Badge } from "@/components/ui/badge";

/** What of a run document (or a preview) the progress needs. */
type TRunProgress = { state: string; progress: { steps_done: number; steps_total: number } };

/** The state badge and "n of m steps done"; `testIdPrefix` keeps the two panels' test ids apart. */
export function RunState({ doc, testIdPrefix = "" }: { doc: TRunProgress; testIdPrefix?: string }) {
  return (
    <>
      <Badge variant={doc.state === "completed" ? "success" : doc.state === "failed" ? "destructive" : "secondary"} data-testid={`${testIdPrefix}run-state`}>
        {doc.state}
      </Badge>
      <span className="text-sm" data-testid={`${testIdPrefix}run-progress`}>
        {doc.progress.steps_done} of {doc.progress.steps_total} steps done
      </span>
    </>
  );
}

/** A bar of the steps done (none before the run knows its steps). */
export function StepsBar({ doc }: { doc: TRunProgress }) {
  return doc.progress.steps_total > 0 ? (
    <progress className="h-2 w-full" max={doc.progress.steps_total} value={doc.progress.steps_done} aria-label="Steps done" />
  ) : null;
}
