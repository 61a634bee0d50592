"use client";
import { useRouter } from "next/navigation";
import { useForm, type FieldValues, type Path, type UseFormProps } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import type { z } from "zod";
import type { TActionError } from "@/lib/auth/action-client";

/**
 * Shows a server action's `serverError` (lib/auth/action-client.ts `TActionError`) the way
 * the UI promises: each field error next to its field (JSON Pointer `/name` → form field
 * `name`, `/a/b` → `a.b`), and the message as a toast when no field names it.
 */
export function applyServerError(error: TActionError | undefined, setFieldError: (field: string, message: string) => void): void {
  if (!error) return;
  const fields = Object.entries(error.fieldErrors ?? {});
  for (const [pointer, message] of fields) setFieldError(pointer.replace(/^\//, "").replaceAll("/", ".").replaceAll("~1", "/").replaceAll("~0", "~"), message);
  if (fields.length === 0) toast.error(error.message);
}

/**
 * A form checked by `schema` in the browser (react-hook-form) and sent with `send` to a server
 * action that checks it again: a refusal goes through `applyServerError`; on success `done`
 * gets the action's data, then the page's server data is refreshed.
 */
export function useActionForm<T extends FieldValues, D>(
  schema: z.ZodType<T, T>,
  options: NoInfer<Omit<UseFormProps<T>, "resolver">>,
  send: (values: T) => Promise<{ data?: D; serverError?: TActionError } | undefined>,
  done: (data: D, values: T) => void,
) {
  const router = useRouter();
  const form = useForm<T>({ ...options, resolver: zodResolver(schema) });
  const onSubmit = form.handleSubmit(async (values) => {
    const r = await send(values);
    if (r?.serverError) return applyServerError(r.serverError, (field, message) => form.setError(field as Path<T>, { message }));
    if (r?.data === undefined) return;
    done(r.data, values);
    router.refresh();
  });
  return { form, onSubmit, errors: form.formState.errors, pending: form.formState.isSubmitting };
}
