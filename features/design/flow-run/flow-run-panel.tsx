"use client";
/**
 * Run the flow while building it, below the editor: a preview of the document as it is now,
 * saved or not (`POST .../flow-previews`, lib/runs/preview-run.ts), with the input and
 * parameter fields of Try it (run-request-fields.tsx). While the text is not JSON, the last
 * document that parsed is run. Problems of the document are listed by pointer, those of an
 * input or parameter next to the field. A step picker (following the canvas's selection, and
 * selecting there) chooses the step whose output is shown (count, first rows with column
 * types, a map for features, or its error); every step's state goes to `onStepStatus` ({}
 * while a run is under way) to badge the canvas's nodes. A layer input starts on the layer Try
 * it would choose (try-it-layers.ts): one that fits and that `layerDefaults.environment` can read.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { FeatureCollection } from "geojson";
import type { z } from "zod";
import { LoaderCircleIcon, PlayIcon, SquareIcon } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { DataTable } from "@/features/design/data-table";
import { countOf } from "@/features/design/format";
import { MapView } from "@/features/design/map-view";
import { RunState, StepsBar } from "@/features/design/run-status";
import { RequestFields, useRunRequest } from "@/features/design/run-request-fields";
import { sendJson, type TProblemAnswer } from "@/features/shell/fetch-json";
import { designApiBase, flowPreviewQuery, isFinal, workspaceLayersQuery } from "@/features/design/flow-run/queries";
import { layerChoice } from "@/features/design/try-it-layers";
import { ZInput, ZParameter, type TInput, type TParameter } from "@/lib/engine/flow-document";
import type { TFlowPreview, TStepPreview } from "@/lib/runs/preview-run";

/** One step's outcome in a preview run, shown on its node on the canvas. */
export type TStepStatus = { state: "ok" | "error"; rows?: number; error?: string };

/** The environment a layer input's default should be readable in, and the environments (slugs) each layer (by id) is readable in. */
export interface TRunLayerDefaults {
  environment: string;
  readableIn: Record<string, string[]>;
}

export interface TFlowRunPanelProps {
  organization: string;
  workspace: string;
  layerDefaults: TRunLayerDefaults;
  /** The flow document as it is now (parsed JSON; it may be incomplete or invalid); null while the text is not JSON. */
  document: unknown;
  /** The step picked here or on the canvas; null: the last step. */
  selectedStepId: string | null;
  onSelectStep: (stepId: string) => void;
  onStepStatus: (s: Record<string, TStepStatus>) => void;
}

/** The step ids of a document (those that are strings), in its order. */
function stepIdsOf(document: unknown): string[] {
  const steps = (document as { steps?: unknown } | null)?.steps;
  return Array.isArray(steps) ? steps.flatMap((s) => (typeof (s as { id?: unknown })?.id === "string" ? [(s as { id: string }).id] : [])) : [];
}

/** What the form can be built from in a document still being written: the inputs and parameters that parse. */
function formOf(document: unknown): { inputs: TInput[]; parameters: TParameter[] } {
  const d = (document ?? {}) as { inputs?: unknown; parameters?: unknown };
  const list = <T,>(v: unknown, schema: z.ZodType<T>) => (Array.isArray(v) ? v : []).flatMap((x) => schema.safeParse(x).data ?? []);
  return { inputs: list(d.inputs, ZInput), parameters: list(d.parameters, ZParameter) };
}

/** The message of a problem answer of the preview routes. */
const notStarted = (r: TProblemAnswer) => r.detail ?? `The preview could not start (${r.status}).`;

/** The preview run (see module doc). */
export function FlowRunPanel(p: TFlowRunPanelProps) {
  const ref = { organization: p.organization, workspace: p.workspace };
  const queryClient = useQueryClient();
  const lastParsed = useRef<unknown>(null);
  if (p.document !== null) lastParsed.current = p.document;
  const document = lastParsed.current;
  const stepIds = stepIdsOf(document);
  const shownStep = p.selectedStepId !== null && stepIds.includes(p.selectedStepId) ? p.selectedStepId : (stepIds[stepIds.length - 1] ?? null);
  const form = useMemo(() => formOf(document), [document]);
  const layers = useQuery(workspaceLayersQuery(ref));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [startError, setStartError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [runId, setRunId] = useState<string | null>(null);
  const [ranDocument, setRanDocument] = useState<string | null>(null);
  const run = useQuery(flowPreviewQuery({ ...ref, runId }));
  const doc = run.data;
  const busy = starting || Boolean(runId && !isFinal(doc?.state));

  // A field's first state: Try it's choice of layer (one that fits and the environment can read), defaults.
  const known = useMemo(() => (layers.data ?? []).map((l) => ({ ...l, environments: p.layerDefaults.readableIn[l.id] ?? [] })), [layers.data, p.layerDefaults]);
  const choice = (i: TInput) => layerChoice(known, i, p.layerDefaults.environment);
  const fitting = (i: TInput) => choice(i).options;
  const request = useRunRequest(form.inputs, form.parameters, (i) => choice(i).preferred);

  // The canvas's badges: every step's state after a run, nothing while one is under way.
  useEffect(() => {
    if (!doc || !isFinal(doc.state)) return p.onStepStatus({});
    const status: Record<string, TStepStatus> = {};
    for (const s of doc.steps ?? []) status[s.id] = { state: "ok", rows: s.count };
    if (doc.state === "failed" && doc.error?.step) status[doc.error.step] = { state: "error", error: doc.error.message };
    p.onStepStatus(status);
  }, [doc?.run_id, doc?.state]);

  const onRun = async (e: React.FormEvent) => {
    e.preventDefault();
    const values = request.request();
    setStartError(null);
    if (Object.keys(values.errors).length > 0) return setErrors(values.errors);
    setErrors({});
    setStarting(true);
    try {
      const r = await sendJson<TFlowPreview>(`${designApiBase(ref)}/flow-previews`, "POST", {
        document,
        inputs: values.inputs,
        parameters: values.parameters,
      });
      if (!r.ok) {
        setErrors(r.errors);
        setStartError(notStarted(r));
        return;
      }
      const started = r.data;
      queryClient.setQueryData(flowPreviewQuery({ ...ref, runId: started.run_id }).queryKey, started);
      setRunId(started.run_id);
      setRanDocument(JSON.stringify(document));
    } catch (err) {
      setStartError(`The preview could not start: ${(err as Error).message}`);
    } finally {
      setStarting(false);
    }
  };

  const onCancel = async () => {
    if (!runId) return;
    setCancelling(true);
    try {
      const r = await sendJson(`${designApiBase(ref)}/flow-previews/${runId}/cancel`, "POST");
      if (!r.ok && r.status !== 409) setStartError(notStarted(r));
      await run.refetch();
    } finally {
      setCancelling(false);
    }
  };

  const documentErrors = Object.entries(errors).filter(([k]) => k.startsWith("/document"));
  const requestErrors = Object.keys(errors).length - documentErrors.length;
  const changed = ranDocument !== null && ranDocument !== JSON.stringify(document);

  return (
    <div className="grid min-w-0 gap-3">
      <FormField id="preview-step" label="Step to show" className="max-w-sm min-w-0">
        <NativeSelect value={shownStep ?? ""} onChange={(e) => e.target.value && p.onSelectStep(e.target.value)} disabled={stepIds.length === 0}>
          {stepIds.length === 0 ? <option value="">No steps yet</option> : null}
          <SelectOptions options={stepIds.map((id) => ({ value: id, label: id }))} />
        </NativeSelect>
      </FormField>
      <section className="grid min-w-0 gap-4 rounded-md border p-3 sm:p-4" aria-labelledby="flow-run-heading" data-testid="flow-run-panel">
        <div className="grid gap-1">
          <h2 id="flow-run-heading" className="text-lg font-semibold">
            Run the flow
          </h2>
          <p className="text-sm text-muted-foreground">
            Runs the document as it is now, saved or not, on this workspace&apos;s data, and keeps what every step yields. Counts as one ETL run, like Try it.
          </p>
        </div>

        <form onSubmit={onRun} className="grid min-w-0 gap-4" noValidate aria-label="Run the flow">
          <RequestFields
            form={request}
            inputs={form.inputs}
            parameters={form.parameters}
            layers={fitting}
            errors={errors}
            idPrefix="preview-"
            noInputs="The document declares no inputs yet."
            note={
              <>
                {layers.isPending ? <p className="text-sm text-muted-foreground">Loading the workspace&apos;s layers…</p> : null}
                {layers.error ? <p className="text-sm text-destructive">Could not load the workspace&apos;s layers: {layers.error.message}</p> : null}
              </>
            }
          />

          {startError || documentErrors.length > 0 || requestErrors > 0 ? (
            <Alert variant="destructive" role="alert" data-testid="flow-run-problems">
              <AlertDescription>
                <p>{startError ?? `The request has ${requestErrors} problem(s); see the fields above.`}</p>
                {documentErrors.length > 0 ? (
                  <ul className="mt-1 grid gap-1">
                    {documentErrors.map(([field, message]) => (
                      <li key={field} className="break-words">
                        <code className="font-mono text-xs">{field.slice("/document".length) || "/"}</code> {message}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </AlertDescription>
            </Alert>
          ) : null}

          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={busy} data-testid="flow-run-button">
              {starting ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : <PlayIcon aria-hidden="true" />} Run
            </Button>
            {runId && doc && !isFinal(doc.state) ? (
              <Button type="button" variant="outline" onClick={onCancel} disabled={cancelling}>
                <SquareIcon aria-hidden="true" /> Cancel
              </Button>
            ) : null}
            <span role="status" aria-live="polite" className="flex flex-wrap items-center gap-2 text-sm">
              {runId && run.isPending ? <LoaderCircleIcon aria-hidden="true" className="size-4 animate-spin" /> : null}
              {doc ? <RunState doc={doc} testIdPrefix="flow-" /> : null}
            </span>
          </div>
          {doc && !isFinal(doc.state) ? <StepsBar doc={doc} /> : null}
          {run.error ? <p className="text-sm text-destructive">Could not read the run: {run.error.message}</p> : null}
        </form>

        {doc?.state === "failed" && doc.error ? (
          <Alert variant="destructive" data-testid="flow-run-error">
            <AlertDescription>
              {doc.error.step && !doc.error.message.includes(`"${doc.error.step}"`) ? `Step "${doc.error.step}" failed: ` : ""}
              {doc.error.message}
            </AlertDescription>
          </Alert>
        ) : null}
        {changed && isFinal(doc?.state) ? (
          <p className="text-sm text-muted-foreground" data-testid="flow-run-stale">
            The document has changed since this run; run again to see the changes.
          </p>
        ) : null}

        <StepOutput doc={doc} runId={runId} stepId={shownStep} />
      </section>
    </div>
  );
}

/** The selected step's output in the last run (or why there is none). */
function StepOutput({ doc, runId, stepId }: { doc: TFlowPreview | undefined; runId: string | null; stepId: string | null }) {
  let body: React.ReactNode;
  if (!runId) body = <p className="text-sm text-muted-foreground">Run the flow to see what each step yields.</p>;
  else if (!stepId) body = <p className="text-sm text-muted-foreground">Pick a step to see its output.</p>;
  else if (!doc || !isFinal(doc.state)) body = <p className="text-sm text-muted-foreground">Running…</p>;
  else if (doc.state === "failed" && doc.error?.step === stepId)
    body = (
      <Alert variant="destructive" data-testid="step-error">
        <AlertDescription>{doc.error.message}</AlertDescription>
      </Alert>
    );
  else if (doc.state !== "completed")
    body = <p className="text-sm text-muted-foreground">The run {doc.state === "cancelled" ? "was cancelled" : "failed"}; this step has no output.</p>;
  else {
    const step = doc.steps?.find((s) => s.id === stepId);
    body = step ? (
      <StepData step={step} limit={doc.row_limit} />
    ) : (
      <p className="text-sm text-muted-foreground">Step &quot;{stepId}&quot; was not in the last run; run the flow again.</p>
    );
  }
  return (
    <section className="grid min-w-0 gap-3 border-t pt-3" aria-labelledby="step-output-heading" data-testid="step-output">
      <h3 id="step-output-heading" className="font-semibold break-all">
        {stepId ? `Output of ${stepId}` : "Step output"}
      </h3>
      {body}
    </section>
  );
}

function StepData({ step, limit }: { step: TStepPreview; limit: number }) {
  const unit = step.kind === "layer" ? "feature" : "row";
  const shown = step.kind === "layer" ? (step.features?.length ?? 0) : (step.rows?.length ?? 0);
  const rows =
    step.kind === "layer" ? ((step.features ?? []) as { properties: Record<string, unknown> | null }[]).map((f) => f.properties ?? {}) : (step.rows ?? []);
  const summary = `${countOf(step.count, unit)}${step.count > shown ? `, the first ${shown} shown` : ""}`;
  return (
    <div className="grid min-w-0 gap-3" data-testid={`step-data-${step.id}`}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge variant="outline">{step.type}</Badge>
        <Badge variant="secondary">{step.kind}</Badge>
        <span data-testid="step-count">{summary}</span>
      </div>
      {step.count === 0 ? (
        <p className="text-sm text-muted-foreground">This step yields no {unit}s.</p>
      ) : (
        <>
          {step.kind === "layer" ? (
            <MapView
              data={{ type: "FeatureCollection", features: step.features ?? [] } as FeatureCollection}
              label={`Map of the output of step ${step.id}: ${summary}`}
            />
          ) : null}
          {step.columns.length > 0 ? (
            <DataTable columns={step.columns} rows={rows} caption={`Step ${step.id}: ${summary}${step.count > limit ? ` (a preview keeps ${limit})` : ""}`} />
          ) : (
            <p className="text-sm text-muted-foreground">No columns.</p>
          )}
        </>
      )}
    </div>
  );
}
