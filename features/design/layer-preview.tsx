"use client";
/** The preview of a layer: a map of (a sample of) its features, or a table of its first rows. */
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/features/shell/fetch-json";
import { Skeleton } from "@/components/ui/skeleton";
import { MapView } from "@/features/design/map-view";
import { DataTable } from "@/features/design/data-table";
import type { TLayerPreview } from "@/lib/layers/layer-preview";

export function LayerPreview({ url, name }: { url: string; name: string }) {
  const q = useQuery({ queryKey: ["design", "layer-preview", url], queryFn: () => fetchJson<TLayerPreview>(url) });
  if (q.isPending) return <Skeleton className="h-72 w-full" />;
  if (q.error) return <p className="text-sm text-destructive">The preview could not be loaded: {q.error.message}</p>;
  const d = q.data;
  if (d.kind === "features") {
    return (
      <div className="grid gap-2">
        <MapView data={d.geojson} label={`Map of layer ${name}`} attributes />
        <p className="text-sm text-muted-foreground" data-testid="preview-note">
          {d.sampled
            ? `A sample of ${d.geojson.features.length.toLocaleString("en")} of ${d.total.toLocaleString("en")} features is shown.`
            : `All ${d.total} features are shown.`}
        </p>
      </div>
    );
  }
  return (
    <DataTable
      columns={d.columns.map((name) => ({ name }))}
      rows={d.rows}
      caption={d.sampled ? `The first ${d.rows.length} of ${d.total.toLocaleString("en")} rows` : `All ${d.total} rows`}
    />
  );
}
