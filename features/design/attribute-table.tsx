"use client";
/**
 * The attribute table of the features on a map (TanStack Table): the first 100 features, one
 * column per property, each header naming the type read from the values. Each row's button
 * selects the feature on the map: the keyboard path to what a click on the map shows.
 */
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import type { Feature } from "geojson";
import { attributeColumns } from "@/features/design/attribute-columns";
import { TableView, valueColumns } from "@/features/design/data-table";

/** At most this many features are listed. */
const MAX_ROWS = 100;

interface TRow {
  index: number;
  properties: Record<string, unknown>;
}

export function AttributeTable(props: { features: Feature[]; label: string; selected: number | null; onSelect: (index: number) => void }) {
  const shown = useMemo(() => props.features.slice(0, MAX_ROWS), [props.features]);
  const columns = useMemo(() => attributeColumns(shown), [shown]);
  const rows = useMemo<TRow[]>(() => shown.map((f, index) => ({ index, properties: (f.properties ?? {}) as Record<string, unknown> })), [shown]);
  const { selected, onSelect } = props;
  const defs = useMemo<ColumnDef<TRow>[]>(
    () => [
      {
        id: "#",
        header: () => <span className="sr-only">Feature</span>,
        cell: (info) => {
          const i = info.row.original.index;
          return (
            <button
              type="button"
              className="rounded px-1.5 py-0.5 font-mono text-xs underline underline-offset-2 hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-pressed:bg-primary aria-pressed:text-primary-foreground aria-pressed:no-underline"
              aria-label={`Show feature ${i + 1} on the map`}
              aria-pressed={selected === i}
              onClick={() => onSelect(i)}
            >
              {i + 1}
            </button>
          );
        },
      },
      ...valueColumns<TRow>(columns, (r, c) => r.properties[c]),
    ],
    [columns, selected, onSelect],
  );
  const total = props.features.length;
  const caption =
    total > MAX_ROWS
      ? `${props.label}: the first ${MAX_ROWS} of ${total.toLocaleString("en")} features`
      : `${props.label}: ${total} feature${total === 1 ? "" : "s"}`;
  return (
    <TableView
      data={rows}
      columns={defs}
      caption={caption}
      className="max-h-80"
      headClassName="align-bottom"
      isSelected={(r) => r.index === selected}
      testId="attribute-table"
    />
  );
}
