"use client";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useAction } from "next-safe-action/hooks";
import { toast } from "sonner";
import { SubmitButton } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { showActionErrors } from "@/components/action-form";
import { updateEnvironmentListAction } from "@/features/console/actions";
import { ZListForm, type TEnvironmentList, type TListForm } from "@/features/console/schemas";

const LISTS: Record<TEnvironmentList, { label: string; hint: string; rows: number; save: string; saved: (n: number) => string }> = {
  origins: {
    label: "Allowed browser origins",
    hint: "One origin per line, like https://app.example.com; * allows any web page; empty allows none (callers from servers are not affected).",
    rows: 4,
    save: "Save origins",
    saved: (n) => (n ? `Saved: ${n} origin(s) may call this environment's API.` : "Saved: no browser origin may call this environment's API."),
  },
  hosts: {
    label: "Allowed private hosts",
    hint: "One host name or IP address per line, like hooks.internal or 10.0.0.5. Webhooks, callbacks and inputs by URL may reach these over http or on private addresses; empty allows only public https.",
    rows: 3,
    save: "Save hosts",
    saved: (n) => (n ? `Saved: ${n} host(s) allowed.` : "Saved: only public https addresses are allowed."),
  },
};

/**
 * One of the environment's lists, one entry per line: its browser origins (CORS,
 * lib/keys/set-cors-origins.ts) or its outbound allow-list (lib/net/outbound-hosts.ts).
 */
export function EnvironmentListForm({
  organization,
  environment,
  list,
  items,
}: {
  organization: string;
  environment: string;
  list: TEnvironmentList;
  items: string[];
}) {
  const kind = LISTS[list];
  const form = useForm<TListForm>({ resolver: zodResolver(ZListForm), defaultValues: { text: items.join("\n") } });
  const { executeAsync, isPending } = useAction(updateEnvironmentListAction);

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await executeAsync({ organization, environment, list, items: values.text.split("\n") });
    if (result?.data) {
      form.reset({ text: result.data.items.join("\n") });
      toast.success(kind.saved(result.data.items.length));
      return;
    }
    // Field errors name one line (/origins/<index>, /hosts/<index>): show them together under the one text area.
    const fieldMessages: string[] = [];
    showActionErrors(result, (_, message) => fieldMessages.push(message) > 0);
    if (fieldMessages.length) form.setError("text", { message: fieldMessages.join(" ") });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid max-w-xl gap-4">
      <FormField id={list} label={kind.label} hint={kind.hint} error={form.formState.errors.text?.message}>
        <Textarea rows={kind.rows} spellCheck={false} className="font-mono" {...form.register("text")} />
      </FormField>
      <div>
        <SubmitButton pending={isPending}>{kind.save}</SubmitButton>
      </div>
    </form>
  );
}
