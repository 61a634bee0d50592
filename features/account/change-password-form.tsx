"use client";
import { useForm, type Path } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useAction } from "next-safe-action/hooks";
import { toast } from "sonner";
import { LoaderCircleIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { applyServerError } from "@/features/shell/action-errors";
import { changePasswordAction } from "@/features/account/actions";
import { ZChangePassword, type TChangePassword } from "@/features/account/schemas";

export function ChangePasswordForm() {
  const form = useForm<TChangePassword>({
    resolver: zodResolver(ZChangePassword),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });
  const { executeAsync, isPending } = useAction(changePasswordAction);
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await executeAsync(values);
    if (result?.data?.ok) {
      form.reset();
      toast.success("Password changed. Other browsers are signed out.");
      return;
    }
    applyServerError(result?.serverError, (field, message) => form.setError(field as Path<TChangePassword>, { message }));
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid max-w-sm gap-4">
      <FormField id="currentPassword" label="Current password" error={errors.currentPassword?.message}>
        <Input type="password" autoComplete="current-password" {...form.register("currentPassword")} />
      </FormField>
      <FormField id="newPassword" label="New password" hint="At least 8 characters." error={errors.newPassword?.message}>
        <Input type="password" autoComplete="new-password" {...form.register("newPassword")} />
      </FormField>
      <FormField id="confirmPassword" label="Repeat the new password" error={errors.confirmPassword?.message}>
        <Input type="password" autoComplete="new-password" {...form.register("confirmPassword")} />
      </FormField>
      <div>
        <Button type="submit" disabled={isPending}>
          {isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : null}
          Change password
        </Button>
      </div>
    </form>
  );
}
