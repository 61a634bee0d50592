"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm, type FieldValues, type Path, type UseFormProps } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import type { z } from "zod";
import type { TActionError } from "@/lib/auth/action-client";

/** What a server action answers besides its data (lib/auth/action-client.ts). */
export interface TActionRefusal {
  serverError?: TActionError;
  /** Input that failed the action's schema (next-safe-action's flattened shape): a client that skipped the form's own check. */
  validationErrors?: { formErrors: string[]; fieldErrors: Partial<Record<string, string[]>> };
}

/**
 * Shows a server action's refusal the way the UI promises: each field error next to its field
 * (`serverError` names it by JSON Pointer, `/name` → `name`, `/a/b` → `a.b`; `validationErrors` by
 * name), and as a toast what no field shows (`showFieldError` answers false for a field the form
 * does not have). Returns whether the action refused.
 */
export function showActionErrors(result: TActionRefusal | undefined, showFieldError: (field: string, message: string) => boolean): boolean {
  const { serverError, validationErrors } = result ?? {};
  if (!serverError && !validationErrors) return false;
  const fields = serverError
    ? Object.entries(serverError.fieldErrors).map(([pointer, message]) => [
        pointer.replace(/^\//, "").replaceAll("/", ".").replaceAll("~1", "/").replaceAll("~0", "~"),
        message,
      ])
    : Object.entries(validationErrors?.fieldErrors ?? {}).map(([field, messages]) => [field, messages?.[0] ?? "Invalid value."]);
  const unshown = fields.filter(([field, message]) => !showFieldError(field, message));
  if (fields.length === 0 || unshown.length > 0) {
    toast.error(
      (serverError?.message ?? [...(validationErrors?.formErrors ?? []), ...unshown.map(([field, message]) => `${field}: ${message}`)].join(" ")) ||
        "Check the form and try again.",
    );
  }
  return true;
}

/**
 * A form checked by `schema` in the browser (react-hook-form) and sent with `send` to a server
 * action that checks it again: a refusal goes through `showActionErrors`; on success `done`
 * gets the action's data, then the page's server data is refreshed.
 */
export function useActionForm<T extends FieldValues, D>(
  schema: z.ZodType<T, T>,
  options: NoInfer<Omit<UseFormProps<T>, "resolver">>,
  send: (values: T) => Promise<({ data?: D } & TActionRefusal) | undefined>,
  done: (data: D, values: T) => void,
) {
  const router = useRouter();
  const form = useForm<T>({ ...options, resolver: zodResolver(schema) });
  const onSubmit = form.handleSubmit(async (values) => {
    const r = await send(values);
    const showFieldError = (field: string, message: string) => {
      if (form.getValues(field as Path<T>) === undefined) return false;
      form.setError(field as Path<T>, { message });
      return true;
    };
    if (showActionErrors(r, showFieldError) || r?.data === undefined) return;
    done(r.data, values);
    router.refresh();
  });
  return { form, onSubmit, errors: form.formState.errors, pending: form.formState.isSubmitting };
}

/**
 * For a server action started by a button or a switch: `run(action, success, then)` awaits it
 * (`pending` meanwhile), shows a refusal as a toast (`showActionErrors`), else toasts `success`
 * and goes to `then` or refreshes the page's server data. `run` answers whether it succeeded.
 */
export function useToastAction() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const run = async (action: Promise<TActionRefusal | undefined>, success: string, then?: string): Promise<boolean> => {
    setPending(true);
    const refused = showActionErrors(await action.finally(() => setPending(false)), () => false);
    if (refused) return false;
    toast.success(success);
    if (then) router.push(then);
    else router.refresh();
    return true;
  };
  return { run, pending };
}
