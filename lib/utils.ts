/** `cn()`: Tailwind class names joined, later utilities winning over earlier conflicting ones (shadcn's helper). */
import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

const NAME_ORDER = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/**
 * The order of names in lists people read (layers, ...): locale-aware and case-insensitive,
 * numbers by value ("Layer 2" before "Layer 10"). The database's collation (C.UTF-8) orders by
 * code point instead: every capitalised name before every lower-case one.
 */
export function compareNames(a: string, b: string): number {
  return NAME_ORDER.compare(a, b);
}
