"use client";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useAction } from "next-safe-action/hooks";
import { toast } from "sonner";
import { LoaderCircleIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { applyServerError } from "@/features/shell/action-errors";
import { updateOutboundHostsAction } from "@/features/console/actions";
import { ZOutboundHostsForm, type TOutboundHostsForm } from "@/features/console/schemas";

/** The environment's outbound allow-list (lib/net/outbound-hosts.ts), one host per line. */
export function OutboundHostsForm({ organization, environment, hosts }: { organization: string; environment: string; hosts: string[] }) {
  const form = useForm<TOutboundHostsForm>({ resolver: zodResolver(ZOutboundHostsForm), defaultValues: { hosts: hosts.join("\n") } });
  const { executeAsync, isPending } = useAction(updateOutboundHostsAction);

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await executeAsync({ organization, environment, hosts: values.hosts.split("\n") });
    if (result?.data) {
      form.reset({ hosts: result.data.hosts.join("\n") });
      toast.success(result.data.hosts.length ? `Saved: ${result.data.hosts.length} host(s) allowed.` : "Saved: only public https addresses are allowed.");
      return;
    }
    // Field errors name one line (/hosts/<index>): show them together under the one text area.
    const fieldMessages = Object.values(result?.serverError?.fieldErrors ?? {});
    if (fieldMessages.length) form.setError("hosts", { message: fieldMessages.join(" ") });
    else applyServerError(result?.serverError, () => {});
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid max-w-xl gap-4">
      <FormField
        id="outbound-hosts"
        label="Allowed private hosts"
        hint="One host name or IP address per line, like hooks.internal or 10.0.0.5. Webhooks and callbacks may reach these over http or on private addresses; empty allows only public https."
        error={form.formState.errors.hosts?.message}
      >
        <Textarea rows={3} spellCheck={false} className="font-mono" {...form.register("hosts")} />
      </FormField>
      <div>
        <Button type="submit" disabled={isPending}>
          {isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : null}
          Save hosts
        </Button>
      </div>
    </form>
  );
}
