/**
 * Shows a server action's `serverError` (lib/auth/action-client.ts `TActionError`) the way
 * the UI promises: each field error next to its field (JSON Pointer `/name` → form field
 * `name`, `/a/b` → `a.b`), and the message as a toast when no field names it.
 */
import { toast } from "sonner";
import type { TActionError } from "@/lib/auth/action-client";

export function applyServerError(error: TActionError | undefined, setFieldError: (field: string, message: string) => void): void {
  if (!error) return;
  const fields = Object.entries(error.fieldErrors ?? {});
  for (const [pointer, message] of fields) setFieldError(pointer.replace(/^\//, "").replaceAll("/", ".").replaceAll("~1", "/").replaceAll("~0", "~"), message);
  if (fields.length === 0) toast.error(error.message);
}
