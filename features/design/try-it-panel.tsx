"use client";
/**
 * Try it: a form derived from the flow version (fields shared with the flow preview:
 * run-request-fields.tsx), checked in the browser with the server's schema (`parseRunRequest`);
 * server errors are shown next to the field they name. Runs as the designer (server action),
 * polled and cancellable; each result downloadable and previewed. The equivalent `curl` call
 * of the published API is shown, unless it would name a layer its environment cannot read
 * (it would answer 422): then the page says how an admin makes the layer readable.
 */
import { useMemo, useState } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useAction } from "next-safe-action/hooks";
import { toast } from "sonner";
import { DownloadIcon, LoaderCircleIcon, PlayIcon, SquareIcon } from "lucide-react";
import { ZFlowVersion } from "@/lib/engine/flow-document";
import { parseRunRequest } from "@/lib/flows/run-request";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { Badge } from "@/components/ui/badge";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { cancelTryAction, startTryAction } from "@/features/design/actions";
import { ResultPreview } from "@/features/design/result-preview";
import { RunState, StepsBar } from "@/features/design/run-status";
import { designApiBase, designRunQuery, isFinal } from "@/features/design/flow-run/queries";
import { DEFAULT_FORMAT, FORMAT_INFO, FORMATS_BY_KIND } from "@/lib/formats/registry";
import { countOf } from "@/features/design/format";
import { chosenUnreadable, layerChoice, type TTryItLayer } from "@/features/design/try-it-layers";
import { RequestFields, useRunRequest } from "@/features/design/run-request-fields";

export interface TTryItProps {
  organization: string;
  workspace: string;
  flowApiId: string;
  apiSlug: string;
  flowVersionId: string;
  flowVersion: number;
  definition: unknown;
  /** The workspace's layers, with the environments that may read each. */
  layers: TTryItLayer[];
  /** Environment used in the `curl` example (a serving one when there is). */
  curlEnvironment: string;
  /** Where an admin makes layers readable in that environment (the console's APIs page); null for a designer, who may not open it. */
  readableLayersHref: string | null;
  /** The callers' base URL for the `curl` example, from the server so both renders agree (no React #418). */
  publicBaseUrl: string;
}

export function TryItPanel(p: TTryItProps) {
  const router = useRouter();
  const flow = useMemo(() => ZFlowVersion.parse(p.definition), [p.definition]);
  const ref = { organization: p.organization, workspace: p.workspace };
  // A layer that fits the input and that the curl call's environment can read (try-it-layers.ts).
  const form = useRunRequest(flow.inputs, flow.parameters, (i) => layerChoice(p.layers, i, p.curlEnvironment).preferred);
  const [formats, setFormats] = useState<Record<string, string>>(() => Object.fromEntries(flow.results.map((r) => [r.key, DEFAULT_FORMAT[r.kind]])));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [runId, setRunId] = useState<string | null>(null);
  const start = useAction(startTryAction);
  const cancel = useAction(cancelTryAction);

  const runUrl = `${designApiBase(ref)}/runs/${runId}`;
  const run = useQuery(designRunQuery({ ...ref, runId }));

  // The request as the fields make it now, checked in the browser and with the server's schema: Run sends it, the curl call shows it.
  const { errors: browserErrors, ...request } = form.request();
  const value = { ...request, formats };
  const checked = parseRunRequest(flow, value);
  const requestErrors =
    Object.keys(browserErrors).length > 0 ? browserErrors : checked.ok ? {} : Object.fromEntries(checked.errors.map((e) => [e.field, e.message]));
  const valid = Object.keys(requestErrors).length === 0;

  const onRun = async (e: React.FormEvent) => {
    e.preventDefault();
    setErrors(requestErrors);
    if (!valid) return;
    const r = await start.executeAsync({ ...ref, flowApiId: p.flowApiId, flowVersionId: p.flowVersionId, request: value });
    if (r?.data) {
      setRunId(r.data.runId);
      router.refresh();
    } else if (r?.serverError) {
      setErrors(r.serverError.fieldErrors);
      if (Object.keys(r.serverError.fieldErrors).length === 0) toast.error(r.serverError.message);
    }
  };

  // Layers the call would name that its environment cannot read: it would answer 422 there.
  const notReadable = chosenUnreadable(
    p.layers,
    flow.inputs.map((i) => (form.stateOf(i).mode === "layer" ? form.stateOf(i).layerId : null)),
    p.curlEnvironment,
  );
  const curl = `curl -X POST "${p.publicBaseUrl}/public/api/${p.organization}/${p.curlEnvironment}/${p.apiSlug}/runs" \\\n  -H "X-Api-Key: $API_KEY" -H "Content-Type: application/json" \\\n  -d '${(valid ? JSON.stringify(value) : "{ ... }").replaceAll("'", "'\\''")}'`;

  const doc = run.data;
  return (
    <div className="grid gap-6">
      <form onSubmit={onRun} className="grid gap-6" noValidate aria-label="Try it">
        <RequestFields
          form={form}
          inputs={flow.inputs}
          parameters={flow.parameters}
          layers={(i) => layerChoice(p.layers, i, p.curlEnvironment).options}
          layerLabel={(l) => `${l.name} (${l.id})${l.environments.includes(p.curlEnvironment) ? "" : ` - not readable in ${p.curlEnvironment} yet`}`}
          errors={errors}
        />

        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 font-semibold">Result formats</legend>
          {flow.results.map((r) => (
            <FormField key={r.key} id={`format-${r.key}`} label={`Format of ${r.key} (${r.kind})`}>
              <NativeSelect value={formats[r.key]} onChange={(e) => setFormats((all) => ({ ...all, [r.key]: e.target.value }))}>
                <SelectOptions options={FORMATS_BY_KIND[r.kind].map((f) => ({ value: f, label: f }))} />
              </NativeSelect>
            </FormField>
          ))}
        </fieldset>
        {Object.keys(errors).length > 0 ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>The request has {Object.keys(errors).length} problem(s); see the fields above.</AlertDescription>
          </Alert>
        ) : null}
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={start.isPending || Boolean(doc && !isFinal(doc.state))}>
            <PlayIcon aria-hidden="true" /> Run
          </Button>
          <span className="text-sm text-muted-foreground">
            Runs flow version {p.flowVersion} as you, on this workspace&apos;s data. Counts as one ETL run; publishes nothing.
          </span>
        </div>
      </form>

      {runId ? (
        <section className="grid gap-3 rounded-md border p-4" aria-label="Run" data-testid="try-run">
          <div className="flex flex-wrap items-center gap-3" role="status" aria-live="polite">
            <span className="font-medium">Run</span>
            <code className="text-xs">{runId}</code>
            {doc ? <RunState doc={doc} /> : <LoaderCircleIcon aria-hidden="true" className="size-4 animate-spin" />}
            {doc && !isFinal(doc.state) ? (
              <Button
                size="sm"
                variant="outline"
                onClick={async () => {
                  const r = await cancel.executeAsync({ ...ref, runId });
                  if (r?.serverError) toast.error(r.serverError.message);
                  run.refetch();
                }}
              >
                <SquareIcon aria-hidden="true" /> Cancel
              </Button>
            ) : null}
          </div>
          {doc ? <StepsBar doc={doc} /> : null}
          {doc?.state === "failed" && doc.error ? (
            <Alert variant="destructive">
              <AlertDescription>
                {doc.error.code}: {doc.error.message}
              </AlertDescription>
            </Alert>
          ) : null}
          {doc?.state === "completed"
            ? (doc.results ?? []).map((r) => {
                const href = `${runUrl}/results/${encodeURIComponent(r.key)}?format=${r.format}`;
                return (
                  <div key={r.key} className="grid gap-2 border-t pt-3" data-testid={`result-${r.key}`}>
                    <div className="flex flex-wrap items-center gap-3">
                      <span className="font-medium">{r.key}</span>
                      <Badge variant="outline">{r.kind}</Badge>
                      <span className="text-sm text-muted-foreground">
                        {"feature_count" in r ? countOf(r.feature_count ?? 0, "feature") : countOf((r as { row_count?: number }).row_count ?? 0, "row")},{" "}
                        {r.format}, {r.size_bytes} bytes
                      </span>
                      <Button asChild size="sm" variant="outline">
                        <a href={href} download>
                          <DownloadIcon aria-hidden="true" /> Download {r.key}.{FORMAT_INFO[r.format].extension}
                        </a>
                      </Button>
                    </div>
                    <ResultPreview
                      kind={r.kind}
                      href={`${runUrl}/results/${encodeURIComponent(r.key)}?format=${r.kind === "layer" ? "geojson" : "csv"}`}
                      name={r.key}
                    />
                  </div>
                );
              })
            : null}
        </section>
      ) : null}

      <section className="grid gap-2">
        <h3 className="font-semibold">The same call on a published API</h3>
        {notReadable.length === 0 ? (
          <pre className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs" data-testid="curl" tabIndex={0} aria-label="curl call">
            {curl}
          </pre>
        ) : (
          <Alert data-testid="curl-unreadable">
            <AlertDescription>
              <span>
                {notReadable.length === 1 ? "Layer" : "Layers"} {notReadable.map((l) => `"${l.id}"`).join(", ")} {notReadable.length === 1 ? "is" : "are"} not
                readable in {p.curlEnvironment} yet: Try it runs on your workspace&apos;s layers, but a call in {p.curlEnvironment} naming{" "}
                {notReadable.length === 1 ? "it" : "them"} would be refused (422 unknown_layer), so no call is shown. An admin of the organization can make{" "}
                {notReadable.length === 1 ? "it" : "them"} readable in the console: {p.curlEnvironment} → APIs → Readable layers
                {p.readableLayersHref ? (
                  <>
                    {" "}
                    (
                    <a className="underline underline-offset-4" href={p.readableLayersHref}>
                      {p.curlEnvironment}: Readable layers
                    </a>
                    )
                  </>
                ) : null}
                . Or choose a layer {p.curlEnvironment} can read above.
              </span>
            </AlertDescription>
          </Alert>
        )}
      </section>
    </div>
  );
}
