"use client";
/**
 * The layer imports still working, or failed in the last day, on the layers page (an upload
 * goes on after its dialog closed). Polls every 2 s while one works; refreshes the page when one completes.
 */
import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { ImportProgress } from "@/features/design/upload-layer-dialog";
import { fetchJsonOrNull } from "@/features/shell/fetch-json";
import type { TLayerImportDocument } from "@/lib/layers/layer-imports";

const POLL_MS = 2_000;
const working = (d: TLayerImportDocument) => d.state === "queued" || d.state === "running";

export function LayerImports({ organization, workspace, initial }: { organization: string; workspace: string; initial: TLayerImportDocument[] }) {
  const router = useRouter();
  const [imports, setImports] = useState(initial);
  const known = useRef(new Set(initial.filter(working).map((d) => d.import_id)));
  const busy = imports.some(working);

  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(async () => {
      const docs = await fetchJsonOrNull<TLayerImportDocument[]>(`/api/design/${organization}/${workspace}/layer-imports`);
      if (!docs) return;
      setImports(docs);
      const finished = docs.filter((d) => known.current.has(d.import_id) && !working(d));
      for (const d of finished) known.current.delete(d.import_id);
      for (const d of docs.filter(working)) known.current.add(d.import_id);
      if (finished.some((d) => d.state === "completed")) router.refresh();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [busy, organization, workspace, router]);

  const shown = imports.filter((d) => working(d) || d.state === "failed");
  if (shown.length === 0) return null;
  return (
    <section aria-label="Layer imports" className="mb-4 grid gap-3">
      {shown.map((d) =>
        working(d) ? (
          <div key={d.import_id} className="grid gap-1 rounded-md border p-3">
            <span className="text-sm font-medium">
              {d.name} <span className="font-mono text-xs text-muted-foreground">{d.layer_id}</span>
            </span>
            <ImportProgress doc={d} />
          </div>
        ) : (
          <Alert key={d.import_id} variant="destructive">
            <AlertTitle>
              Importing {d.name} ({d.layer_id}) failed
            </AlertTitle>
            <AlertDescription>
              {d.error?.detail}
              {d.error?.errors?.length ? ` First problem: ${d.error.errors[0]!.message}` : ""}
            </AlertDescription>
          </Alert>
        ),
      )}
    </section>
  );
}
