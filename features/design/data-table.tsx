"use client";
/** A read-only table of rows (TanStack Table), and `TableView` and `valueColumns`, the markup and columns it shares with the attribute table. */
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";
import { formatValue } from "@/features/design/attribute-columns";

/** A captioned TanStack table in a region that scrolls (and takes focus, for the keyboard); `isSelected` marks rows. */
export function TableView<T>(props: {
  data: T[];
  columns: ColumnDef<T>[];
  caption: string;
  className: string;
  headClassName?: string;
  isSelected?: (row: T) => boolean;
  testId?: string;
}) {
  const table = useReactTable({ data: props.data, columns: props.columns, getCoreRowModel: getCoreRowModel() });
  return (
    <div className={cn("overflow-auto rounded-md border", props.className)} tabIndex={0} role="region" aria-label={props.caption} data-testid={props.testId}>
      <Table>
        <TableCaption>{props.caption}</TableCaption>
        <TableHeader>
          {table.getHeaderGroups().map((g) => (
            <TableRow key={g.id}>
              {g.headers.map((h) => (
                <TableHead key={h.id} className={props.headClassName}>
                  {flexRender(h.column.columnDef.header, h.getContext())}
                </TableHead>
              ))}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {table.getRowModel().rows.map((r) => (
            <TableRow key={r.id} data-state={props.isSelected?.(r.original) ? "selected" : undefined}>
              {r.getVisibleCells().map((c) => (
                <TableCell key={c.id}>{flexRender(c.column.columnDef.cell, c.getContext())}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** One column per name, its type (when known) under the name, each value as text. */
export function valueColumns<T>(columns: readonly { name: string; type?: string }[], get: (row: T, name: string) => unknown): ColumnDef<T>[] {
  return columns.map((c) => ({
    id: c.name,
    header: c.type
      ? () => (
          <span className="flex flex-col leading-tight">
            <span>{c.name}</span>
            <span className="text-xs font-normal text-muted-foreground">{c.type}</span>
          </span>
        )
      : c.name,
    accessorFn: (r) => get(r, c.name),
    cell: (info) => formatValue(info.getValue()),
  }));
}

/** `columns`: each with its type when it is known (a flow preview's columns). */
export function DataTable({
  columns,
  rows,
  caption,
}: {
  columns: readonly { name: string; type?: string }[];
  rows: Record<string, unknown>[];
  caption: string;
}) {
  const defs = useMemo(() => valueColumns<Record<string, unknown>>(columns, (r, c) => r[c]), [columns]);
  return <TableView data={rows} columns={defs} caption={caption} className="max-h-96" />;
}
