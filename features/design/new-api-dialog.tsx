"use client";
/** "New API": an active flow, a name and a slug (suggested from the name; the server checks it is free), created as a draft; a refusal (e.g. the plan's limit) is shown. */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { PlusIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormField } from "@/components/ui/form-field";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { Dialog, DialogContent, DialogFooter, DialogHeading, DialogTrigger } from "@/components/ui/dialog";
import { useActionForm } from "@/components/action-form";
import { createApiAction } from "@/features/design/actions";
import { slugify, ZCreateApi } from "@/features/design/schemas";
import type { TFlowChoice } from "@/features/design/data";

export function NewApiDialog(p: { organization: string; workspace: string; flows: TFlowChoice[]; apisHref: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [slugTouched, setSlugTouched] = useState(false);
  const { form, onSubmit, errors, pending } = useActionForm(
    ZCreateApi,
    { defaultValues: { organization: p.organization, workspace: p.workspace, kind: "flow", flowId: "", name: "", slug: "" } },
    async (values) => {
      setRefusal(null);
      const r = await createApiAction(values);
      // A refusal that names no field (e.g. the plan's limit) stays in the dialog.
      if (r?.serverError && Object.keys(r.serverError.fieldErrors).length === 0) return void setRefusal(r.serverError.message);
      return r;
    },
    (data) => {
      setOpen(false);
      router.push(`${p.apisHref}/${data.flowApiId}`);
    },
  );
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon aria-hidden="true" /> New API
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={onSubmit} className="grid gap-4" noValidate>
          <DialogHeading title="New API" description="The API is created as a draft. Try it, then publish it to an environment." />
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Kind</legend>
            <label className="flex items-start gap-3 rounded-md border p-3">
              <input type="radio" name="kind" value="flow" defaultChecked className="mt-1" />
              <span>
                <span className="font-medium">Flow API</span>
                <span className="block text-sm text-muted-foreground">Runs a reusable flow on the caller&apos;s inputs and returns its results as files.</span>
              </span>
            </label>
          </fieldset>
          <FormField id="api-flow" label="Flow" error={errors.flowId?.message}>
            <NativeSelect {...form.register("flowId")}>
              <option value="">{p.flows.length === 0 ? "No active flow: create one first" : "Choose an active flow"}</option>
              <SelectOptions options={p.flows.map((f) => ({ value: f.id, label: `${f.name} (latest v${f.latest})` }))} />
            </NativeSelect>
          </FormField>
          <FormField id="api-name" label="Name" error={errors.name?.message}>
            <Input
              {...form.register("name", {
                onChange: (e) => {
                  if (!slugTouched) form.setValue("slug", slugify(e.target.value));
                },
              })}
              placeholder="Cities in area"
            />
          </FormField>
          <FormField id="api-slug" label="Slug" hint="Part of the public address: /public/api/{organization}/{environment}/{slug}" error={errors.slug?.message}>
            <Input {...form.register("slug", { onChange: () => setSlugTouched(true) })} placeholder="cities-in-area" />
          </FormField>
          {refusal ? (
            <Alert variant="destructive" role="alert" data-testid="create-refusal">
              <AlertDescription>{refusal}</AlertDescription>
            </Alert>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              Create draft
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
