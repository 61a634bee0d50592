import * as React from "react";
import { cn } from "@/lib/utils";

/** A styled native `<select>`: keyboard, screen readers and forms work as the browser makes them. */
export function NativeSelect({ className, ...props }: React.ComponentProps<"select">) {
  return (
    <select
      data-slot="native-select"
      className={cn(
        "flex h-9 w-full min-w-0 rounded-md border border-input bg-background px-3 py-1 text-sm shadow-xs outline-none disabled:cursor-not-allowed disabled:opacity-50",
        "focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive",
        className,
      )}
      {...props}
    />
  );
}

/** The `<option>`s of a select, one per `{ value, label }`. */
export function SelectOptions({ options }: { options: readonly { value: string | number; label: React.ReactNode }[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ));
}
