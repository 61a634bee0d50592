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
import { updateCorsOriginsAction } from "@/features/console/actions";
import { ZCorsOriginsForm, type TCorsOriginsForm } from "@/features/console/schemas";

export function CorsOriginsForm({ organization, environment, origins }: { organization: string; environment: string; origins: string[] }) {
  const form = useForm<TCorsOriginsForm>({ resolver: zodResolver(ZCorsOriginsForm), defaultValues: { origins: origins.join("\n") } });
  const { executeAsync, isPending } = useAction(updateCorsOriginsAction);

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await executeAsync({ organization, environment, origins: values.origins.split("\n") });
    if (result?.data) {
      form.reset({ origins: result.data.origins.join("\n") });
      toast.success(
        result.data.origins.length
          ? `Saved: ${result.data.origins.length} origin(s) may call this environment's API.`
          : "Saved: no browser origin may call this environment's API.",
      );
      return;
    }
    // Field errors name one line (/origins/<index>): show them together under the one text area.
    const fieldMessages = Object.values(result?.serverError?.fieldErrors ?? {});
    if (fieldMessages.length) form.setError("origins", { message: fieldMessages.join(" ") });
    else applyServerError(result?.serverError, () => {});
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid max-w-xl gap-4">
      <FormField
        id="origins"
        label="Allowed browser origins"
        hint="One origin per line, like https://app.example.com; * allows any web page; empty allows none (callers from servers are not affected)."
        error={form.formState.errors.origins?.message}
      >
        <Textarea rows={4} spellCheck={false} className="font-mono" {...form.register("origins")} />
      </FormField>
      <div>
        <Button type="submit" disabled={isPending}>
          {isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : null}
          Save origins
        </Button>
      </div>
    </form>
  );
}
