/** `cn()`: Tailwind class names joined, later utilities winning over earlier conflicting ones (shadcn's helper). */
import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
