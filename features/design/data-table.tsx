"use client";
/** A read-only table of rows (TanStack Table 8), for table previews of layers and results. */
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

/** `columnTypes`: a type per column, shown under its name (a flow preview's columns). */
export function DataTable({
  columns,
  rows,
  caption,
  columnTypes,
}: {
  columns: string[];
  rows: Record<string, unknown>[];
  caption: string;
  columnTypes?: Record<string, string>;
}) {
  const defs = useMemo<ColumnDef<Record<string, unknown>>[]>(
    () =>
      columns.map((c) => ({
        id: c,
        header: columnTypes?.[c]
          ? () => (
              <span className="grid">
                <span>{c}</span>
                <span className="text-xs font-normal text-muted-foreground">{columnTypes[c]}</span>
              </span>
            )
          : c,
        accessorFn: (r) => r[c],
        cell: (info) => formatCell(info.getValue()),
      })),
    [columns, columnTypes],
  );
  const table = useReactTable({ data: rows, columns: defs, getCoreRowModel: getCoreRowModel() });
  return (
    <div className="max-h-96 overflow-auto rounded-md border" tabIndex={0} role="region" aria-label={caption}>
      <Table>
        <TableCaption>{caption}</TableCaption>
        <TableHeader>
          {table.getHeaderGroups().map((g) => (
            <TableRow key={g.id}>
              {g.headers.map((h) => (
                <TableHead key={h.id}>{flexRender(h.column.columnDef.header, h.getContext())}</TableHead>
              ))}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {table.getRowModel().rows.map((r) => (
            <TableRow key={r.id}>
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

function formatCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}
