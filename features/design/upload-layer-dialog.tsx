"use client";
/**
 * "Add layer": a GeoJSON, GeoJSON Text Sequences, CSV or GeoParquet file of up to 2 GiB,
 * streamed with upload progress (XMLHttpRequest), then the worker's import polled. Closing the
 * dialog does not stop the import (the layers page lists those still working). Name and id
 * come from the chosen file unless typed first. An id already in the workspace (or the
 * server's 409) is replaced only after a confirmation naming what reads the layer; the
 * confirmed upload carries `replace=1`, which the server requires.
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { UploadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogHeading, DialogTrigger } from "@/components/ui/dialog";
import { slugify } from "@/features/design/schemas";
import { formatOfUrl } from "@/lib/flows/href-input";
import { fetchJsonOrNull } from "@/features/shell/fetch-json";
import type { TLayerImportDocument } from "@/lib/layers/layer-imports";
import type { TLayerUsage } from "@/lib/layers/layer-usage";

const MAX_MIB = 2048;
const POLL_MS = 500;
const NO_FIELDS = { name: "", id: "", lon: "", lat: "" };

export function UploadLayerDialog({ organization, workspace, existingIds }: { organization: string; workspace: string; existingIds: string[] }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  // Typed by the user before any file was chosen: kept when the first file is chosen.
  const [typed, setTyped] = useState({ name: false, id: false });
  const [replacing, setReplacing] = useState<{ id: string; usage: TLayerUsage | null } | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fields, setFields] = useState(NO_FIELDS);
  const { name, id, lon, lat } = fields;
  const setField = (k: keyof typeof NO_FIELDS, v: string) => setFields((f) => ({ ...f, [k]: v }));
  /** A field's input: name and id also remember that the user typed them. */
  const fieldInput = (k: keyof typeof NO_FIELDS) => (
    <Input
      value={fields[k]}
      onChange={(e) => {
        setField(k, e.target.value);
        if (k === "name" || k === "id") setTyped((t) => ({ ...t, [k]: true }));
      }}
    />
  );
  const [progress, setProgress] = useState<number | null>(null);
  const [importing, setImporting] = useState<TLayerImportDocument | null>(null);
  const [problem, setProblem] = useState<{ title: string; items: { field: string; message: string }[] } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // By the file name's extension, as for an href input.
  const format = file ? formatOfUrl(`file:///${encodeURIComponent(file.name)}`) : null;

  const reset = () => {
    setFile(null);
    setFields(NO_FIELDS);
    setTyped({ name: false, id: false });
    setProblem(null);
    setFieldErrors({});
    setReplacing(null);
  };

  const chooseFile = (f: File | null) => {
    const first = file === null;
    setFile(f);
    if (!f) return;
    const base = f.name.replace(/\.[^.]+$/, "");
    if (!(first && typed.name)) setField("name", base);
    if (!(first && typed.id)) setField("id", slugify(base));
    setTyped({ name: false, id: false });
  };

  /** Asks before replacing `layerId`, naming what reads it (the confirmation shows even when that cannot be fetched). */
  const askReplace = async (layerId: string) => {
    const usage = await fetchJsonOrNull<TLayerUsage>(`/api/design/${organization}/${workspace}/layers/${encodeURIComponent(layerId)}/usage`).catch(() => null);
    setReplacing({ id: layerId, usage });
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setProblem(null);
    const errs: Record<string, string> = {};
    if (!file) errs.file = "Choose a file.";
    else if (!format) errs.file = "Use a .geojson, .json, .geojsonl (one feature per line), .csv or .parquet file.";
    else if (file.size > MAX_MIB * 1024 * 1024) errs.file = `The file is ${(file.size / 1024 / 1024).toFixed(1)} MiB; at most ${MAX_MIB} MiB are accepted.`;
    if (!name.trim()) errs.name = "A layer needs a name.";
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) errs.id = "Lower-case letters, digits and single hyphens.";
    setFieldErrors(errs);
    if (Object.keys(errs).length > 0) return;
    if (existingIds.includes(id)) void askReplace(id);
    else send(false);
  };

  const done = (result: { replaced: boolean; itemCount: number; kind: string }) => {
    toast.success(
      `${result.replaced ? "Replaced" : "Added"} layer ${id}: ${result.itemCount.toLocaleString("en")} ${result.kind === "table" ? "rows" : "features"}.`,
    );
    setImporting(null);
    setOpen(false);
    reset();
    router.refresh();
  };

  const failed = (title: string, items: { field: string; message: string }[]) => {
    setImporting(null);
    const own: Record<string, string> = {};
    for (const it of items) if (["/id", "/name", "/lonColumn", "/latColumn"].includes(it.field)) own[it.field.slice(1)] = it.message;
    setFieldErrors(own);
    setProblem({ title, items: items.filter((it) => it.field.startsWith("/file")) });
  };

  /** Follows the worker's import of the upload until it ends (bytes read, items imported). */
  const follow = async (importId: string) => {
    for (;;) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      const doc = await fetchJsonOrNull<TLayerImportDocument>(`/api/design/${organization}/${workspace}/layer-imports/${importId}`);
      if (!doc) continue;
      setImporting(doc);
      if (doc.state === "completed" && doc.result) return done(doc.result);
      if (doc.state === "failed") return failed(doc.error?.detail ?? "The import failed.", doc.error?.errors ?? []);
    }
  };

  const send = (replace: boolean) => {
    setReplacing(null);
    const q = new URLSearchParams({ id, name, format: format!, wait: "0" });
    if (replace) q.set("replace", "1");
    if (format === "csv" && lon) q.set("lon", lon);
    if (format === "csv" && lat) q.set("lat", lat);
    const req = new XMLHttpRequest();
    req.open("POST", `/api/design/${organization}/${workspace}/layers?${q}`);
    req.responseType = "json"; // a body that is not JSON reads as null
    req.upload.onprogress = (ev) => ev.lengthComputable && setProgress(Math.round((ev.loaded / ev.total) * 100));
    req.onload = () => {
      setProgress(null);
      const body = req.response;
      if (req.status === 202 && body?.import_id) {
        setImporting(body as TLayerImportDocument);
        void follow(body.import_id as string);
        return;
      }
      if (req.status === 200 || req.status === 201) return done(body);
      if (req.status === 409 && !replace) {
        void askReplace(id);
        return;
      }
      failed(body?.detail ?? `Upload failed (${req.status}).`, body?.errors ?? []);
    };
    req.onerror = () => {
      setProgress(null);
      setProblem({ title: "The upload did not reach the server.", items: [] });
    };
    setProgress(0);
    req.send(file);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <UploadIcon aria-hidden="true" /> Add layer
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeading
            title="Add a layer"
            description="GeoJSON (a FeatureCollection, or one Feature per line), CSV (a header row; longitude/latitude columns make points) or GeoParquet. At most 2 GiB and 20,000,000 items. An id already in this workspace replaces that layer, after you confirm."
          />
          <FormField id="layer-file" label="File" error={fieldErrors.file}>
            <Input
              type="file"
              accept=".geojson,.json,.geojsonl,.geojsons,.ndjson,.csv,.parquet,.geoparquet"
              onChange={(e) => chooseFile(e.target.files?.[0] ?? null)}
            />
          </FormField>
          <FormField id="layer-name" label="Name" error={fieldErrors.name}>
            {fieldInput("name")}
          </FormField>
          <FormField id="layer-id" label="Layer id" hint='What requests send as {"layer_id": "..."}' error={fieldErrors.id}>
            {fieldInput("id")}
          </FormField>
          {format === "csv" ? (
            // items-start: the two hints differ in length; stretched cells put the inputs at different heights.
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <FormField
                id="layer-lon"
                label="Longitude column (optional)"
                hint="Found by name (lon, lng, longitude, x) when empty"
                error={fieldErrors.lonColumn}
              >
                {fieldInput("lon")}
              </FormField>
              <FormField id="layer-lat" label="Latitude column (optional)" hint="Found by name (lat, latitude, y) when empty" error={fieldErrors.latColumn}>
                {fieldInput("lat")}
              </FormField>
            </div>
          ) : null}
          {progress !== null ? (
            <Progress value={progress} label="Upload progress" text={progress < 100 ? `Uploading… ${progress}%` : "Uploaded; starting the import…"} />
          ) : importing ? (
            <ImportProgress doc={importing} />
          ) : null}
          {problem ? (
            <Alert variant="destructive" role="alert" data-testid="upload-problem">
              <AlertTitle>{problem.title}</AlertTitle>
              {problem.items.length > 0 ? (
                <AlertDescription>
                  <ul className="ml-4 list-disc">
                    {problem.items.map((it, i) => (
                      <li key={i}>
                        {it.message} <code className="text-xs">{it.field.replace(/^\/file/, "") || "/"}</code>
                      </li>
                    ))}
                  </ul>
                </AlertDescription>
              ) : null}
            </Alert>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={progress !== null || importing !== null}>
              Upload
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
      <Dialog open={replacing !== null} onOpenChange={(o) => !o && setReplacing(null)}>
        <DialogContent role="alertdialog">
          {replacing ? <ReplaceConfirmation id={replacing.id} usage={replacing.usage} onConfirm={() => send(true)} /> : null}
        </DialogContent>
      </Dialog>
    </Dialog>
  );
}

/** A bar (`value` in percent) and what it stands for, read out as it changes. */
function Progress({ value, label, text, testId }: { value: number; label: string; text: string; testId?: string }) {
  return (
    <div className="grid gap-1" data-testid={testId}>
      <progress className="h-2 w-full" max={100} value={value} aria-label={label} />
      <span className="text-sm text-muted-foreground" aria-live="polite">
        {text}
      </span>
    </div>
  );
}

/** One import's progress: bytes of the file read, items imported so far. */
export function ImportProgress({ doc }: { doc: TLayerImportDocument }) {
  const share = doc.bytes_total > 0 ? Math.min(100, Math.round((doc.bytes_done / doc.bytes_total) * 100)) : 0;
  const text =
    doc.state === "queued"
      ? "Waiting for a worker to import the file…"
      : `Importing… ${doc.items_done.toLocaleString("en")} ${doc.items_done === 1 ? "item" : "items"}, ${share}% of the file read. You may close this dialog; the import goes on.`;
  return <Progress value={share} label={`Import of ${doc.layer_id}`} text={text} testId="import-progress" />;
}

/** What the replacement overwrites and who reads it, with Cancel and Replace. */
function ReplaceConfirmation({ id, usage, onConfirm }: { id: string; usage: TLayerUsage | null; onConfirm: () => void }) {
  const layer = usage?.layer;
  const label = layer ? `${layer.name} (${layer.id})` : id;
  return (
    <>
      <DialogHeading
        title={<>Replace layer {label}?</>}
        description={
          layer
            ? `Its ${layer.itemCount.toLocaleString("en")} ${layer.kind === "table" ? "rows" : "features"} are replaced by this file's content. There is no undo.`
            : `A layer with id ${id} already exists; its content is replaced by this file's. There is no undo.`
        }
      />
      {usage ? (
        <div className="grid gap-2 text-sm" data-testid="layer-usage">
          <p>
            {usage.environments.length === 0
              ? "No environment may read it: only Try it in this workspace uses it."
              : `Callers in ${usage.environments.map((e) => e.slug).join(", ")} may read it; their next runs use the new content.`}
          </p>
          {usage.apis.length > 0 ? (
            <>
              <p>Published APIs whose flow takes it as an input:</p>
              <ul className="ml-4 list-disc">
                {usage.apis.map((a) => (
                  <li key={`${a.slug}/${a.environment}`}>
                    <span className="font-mono">{a.slug}</span> in {a.environment} (release {a.release}; input {a.inputs.join(", ")})
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : (
        <p className="text-sm">What reads it could not be looked up.</p>
      )}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button variant="destructive" onClick={onConfirm}>
          Replace {layer?.name ?? id}
        </Button>
      </DialogFooter>
    </>
  );
}
