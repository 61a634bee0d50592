import * as React from "react";
import { cn } from "@/lib/utils";

export function Table({ className, ...props }: React.ComponentProps<"table">) {
  return (
    <div data-slot="table-container" className="relative w-full overflow-x-auto">
      <table data-slot="table" className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: React.ComponentProps<"thead">) {
  return <thead data-slot="table-header" className={cn("[&_tr]:border-b", className)} {...props} />;
}

export function TableBody({ className, ...props }: React.ComponentProps<"tbody">) {
  return <tbody data-slot="table-body" className={cn("[&_tr:last-child]:border-0", className)} {...props} />;
}

export function TableRow({ className, ...props }: React.ComponentProps<"tr">) {
  return <tr data-slot="table-row" className={cn("border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted", className)} {...props} />;
}

export function TableHead({ className, ...props }: React.ComponentProps<"th">) {
  return <th data-slot="table-head" className={cn("h-10 px-2 text-left align-middle font-medium whitespace-nowrap text-foreground", className)} {...props} />;
}

export function TableCell({ className, ...props }: React.ComponentProps<"td">) {
  return <td data-slot="table-cell" className={cn("p-2 align-middle whitespace-nowrap", className)} {...props} />;
}

export function TableCaption({ className, ...props }: React.ComponentProps<"caption">) {
  return <caption data-slot="table-caption" className={cn("mt-4 text-sm text-muted-foreground", className)} {...props} />;
}

/**
 * A `<thead>` with one row of column titles: a title, or `[title, class]`: the class of its
 * cell (`"text-right"` for numbers), or `"sr-only"` for a title only screen readers read.
 */
export function TableHeaderRow({ columns }: { columns: (string | [string, string])[] }) {
  return (
    <TableHeader>
      <TableRow>
        {columns.map((c, i) => {
          const [label, className] = typeof c === "string" ? [c] : c;
          const srOnly = className === "sr-only";
          return (
            <TableHead key={i} className={srOnly ? undefined : className}>
              {srOnly ? <span className="sr-only">{label}</span> : label}
            </TableHead>
          );
        })}
      </TableRow>
    </TableHeader>
  );
}
