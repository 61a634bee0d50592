"use client";
/** Preview of a Try-it result: a layer on a map (at most 5,000 features), a table as a table (the first 100 rows). */
import { useQuery } from "@tanstack/react-query";
import { parse } from "csv-parse/browser/esm/sync";
import type { FeatureCollection } from "geojson";
import { MapView } from "@/features/design/map-view";
import { DataTable } from "@/features/design/data-table";
import { countOf } from "@/features/design/format";

const MAX_FEATURES = 5_000;
const MAX_ROWS = 100;

export function ResultPreview({ kind, href, name }: { kind: "layer" | "table"; href: string; name: string }) {
  const q = useQuery({
    queryKey: ["design", "result", href],
    queryFn: async () => {
      const res = await fetch(href);
      if (!res.ok) throw new Error(`Could not load the result (${res.status}).`);
      return res.text();
    },
    staleTime: Infinity,
  });
  if (q.isPending) return <p className="text-sm text-muted-foreground">Loading the preview…</p>;
  if (q.error) return <p className="text-sm text-destructive">{q.error.message}</p>;
  if (kind === "layer") {
    const fc = JSON.parse(q.data) as FeatureCollection;
    const shown = fc.features.length > MAX_FEATURES ? { ...fc, features: fc.features.slice(0, MAX_FEATURES) } : fc;
    return <MapView data={shown} label={`Map of result ${name}: ${fc.features.length} features`} attributes />;
  }
  const rows = parse(q.data, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const columns = rows.length > 0 ? Object.keys(rows[0]!).map((name) => ({ name })) : [];
  return (
    <DataTable
      columns={columns}
      rows={rows.slice(0, MAX_ROWS)}
      caption={`Result ${name}: ${countOf(rows.length, "row")}${rows.length > MAX_ROWS ? ` (first ${MAX_ROWS} shown)` : ""}`}
    />
  );
}
