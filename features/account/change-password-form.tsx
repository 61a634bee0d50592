"use client";
import { toast } from "sonner";
import { SubmitButton } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { useActionForm } from "@/components/action-form";
import { changePasswordAction } from "@/features/account/actions";
import { ZChangePassword } from "@/features/account/schemas";

export function ChangePasswordForm() {
  const { form, onSubmit, errors, pending } = useActionForm(
    ZChangePassword,
    { defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" } },
    changePasswordAction,
    () => {
      form.reset();
      toast.success("Password changed. Other browsers are signed out.");
    },
  );
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
        <SubmitButton pending={pending}>Change password</SubmitButton>
      </div>
    </form>
  );
}
