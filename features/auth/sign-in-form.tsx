"use client";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useAction } from "next-safe-action/hooks";
import { CircleAlertIcon } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { SubmitButton } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { signInAction } from "@/features/auth/actions";
import { ZSignIn, type TSignIn } from "@/features/auth/schemas";

export function SignInForm({ callbackUrl }: { callbackUrl?: string }) {
  const [message, setMessage] = useState<string | null>(null);
  const form = useForm<TSignIn>({ resolver: zodResolver(ZSignIn), defaultValues: { email: "", password: "" } });
  const { executeAsync, isPending } = useAction(signInAction);
  const busy = isPending || form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(async (values) => {
    setMessage(null);
    const result = await executeAsync({ ...values, callbackUrl });
    if (result?.serverError) {
      setMessage(result.serverError.message);
      form.setValue("password", "");
      form.setFocus("password");
    } else if (result?.validationErrors) {
      setMessage("Check the email and password.");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-describedby={message ? "sign-in-error" : undefined}>
      {message ? (
        <Alert variant="destructive" id="sign-in-error">
          <CircleAlertIcon aria-hidden="true" />
          <AlertDescription>{message}</AlertDescription>
        </Alert>
      ) : null}
      <FormField id="email" label="Email" error={form.formState.errors.email?.message}>
        <Input type="email" autoComplete="username" autoFocus {...form.register("email")} />
      </FormField>
      <FormField id="password" label="Password" error={form.formState.errors.password?.message}>
        <Input type="password" autoComplete="current-password" {...form.register("password")} />
      </FormField>
      <SubmitButton pending={busy} className="w-full">
        Sign in
      </SubmitButton>
    </form>
  );
}
