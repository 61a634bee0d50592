"use client";
import { useState } from "react";
import Link from "next/link";
import { toast } from "sonner";
import { UsersIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { Label } from "@/components/ui/label";
import { EmptyState } from "@/features/shell/empty-state";
import { useActionForm, useToastAction } from "@/components/action-form";
import { createConsumerAction, deleteConsumerAction, renameConsumerAction, setGrantAction } from "@/features/console/actions";
import { ConfirmButton } from "@/components/confirm-button";
import { ZConsumerForm } from "@/features/console/schemas";
import type { TConsoleConsumer } from "@/lib/consumers/list-consumers";
import type { TServedApi } from "@/lib/serving/list-served-apis";
import { consolePath } from "@/features/shell/routes";
import type { TConsoleParams } from "@/features/console/console-layout";

/** Consumers of the environment: create, rename, delete, and their grants per served API. */
export function ConsumersManager({ place, consumers, apis }: { place: TConsoleParams; consumers: TConsoleConsumer[]; apis: TServedApi[] }) {
  return (
    <div className="grid gap-6">
      <CreateConsumerForm place={place} />
      {consumers.length === 0 ? (
        <EmptyState
          icon={UsersIcon}
          title="No consumers yet"
          description="Create a consumer for each caller (a team, an app, a customer), then give it keys and access to APIs."
        />
      ) : (
        <ul className="grid gap-4" aria-label="Consumers">
          {consumers.map((c) => (
            <li key={c.id}>
              <ConsumerCard place={place} consumer={c} apis={apis} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function CreateConsumerForm({ place }: { place: TConsoleParams }) {
  const { form, onSubmit, errors, pending } = useActionForm(
    ZConsumerForm,
    { defaultValues: { name: "" } },
    (values) => createConsumerAction({ ...values, ...place }),
    (created) => {
      toast.success(`Consumer ${created.name} created.`);
      form.reset();
    },
  );
  return (
    <form className="flex flex-wrap items-start gap-2" onSubmit={onSubmit}>
      <FormField id="new-consumer-name" label="New consumer" error={errors.name?.message} className="w-80">
        <Input placeholder="e.g. Acme mobile app" {...form.register("name")} />
      </FormField>
      <Button type="submit" disabled={pending} className="mt-6">
        Create consumer
      </Button>
    </form>
  );
}

function ConsumerCard({ place, consumer, apis }: { place: TConsoleParams; consumer: TConsoleConsumer; apis: TServedApi[] }) {
  const { run, pending } = useToastAction();
  const [renaming, setRenaming] = useState(false);
  const granted = new Set(consumer.grantedApiIds);
  const activeKeys = consumer.keys.filter((k) => k.state === "active" || k.state === "expiring").length;
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <CardTitle>{consumer.name}</CardTitle>
          <CardDescription>
            <span className="font-mono">{consumer.slug}</span> · {activeKeys} active {activeKeys === 1 ? "key" : "keys"} ·{" "}
            <Link className="underline underline-offset-4" href={`${consolePath(place.organization, place.environment, "keys")}?consumer=${consumer.id}`}>
              Keys<span className="sr-only"> of {consumer.name}</span>
            </Link>{" "}
            ·{" "}
            <Link className="underline underline-offset-4" href={`${consolePath(place.organization, place.environment, "consumers")}/${consumer.id}/webhooks`}>
              Webhooks<span className="sr-only"> of {consumer.name}</span>
            </Link>
          </CardDescription>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={() => setRenaming(true)} aria-label={`Rename ${consumer.name}`}>
            Rename
          </Button>
          <ConfirmButton
            size="sm"
            label="Delete"
            ariaLabel={`Delete ${consumer.name}`}
            title={`Delete ${consumer.name}?`}
            description={`Its ${activeKeys} active ${activeKeys === 1 ? "key stops" : "keys stop"} working at once, and its grants and runs are removed. This cannot be undone.`}
            confirmLabel="Delete consumer"
            confirmVariant="destructive"
            run={() => deleteConsumerAction({ ...place, consumerId: consumer.id })}
            success={`${consumer.name} deleted.`}
          />
        </div>
      </CardHeader>
      <CardContent>
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">Access to APIs</legend>
          {apis.length === 0 ? <p className="text-sm text-muted-foreground">This environment serves no APIs yet.</p> : null}
          {apis.map((a) => {
            const id = `grant-${consumer.id}-${a.flowApiId}`;
            return (
              <div key={a.flowApiId} className="flex items-center gap-3">
                <Switch
                  id={id}
                  checked={granted.has(a.flowApiId)}
                  disabled={pending}
                  onCheckedChange={(value) =>
                    run(
                      setGrantAction({ ...place, consumerId: consumer.id, flowApiId: a.flowApiId, granted: value }),
                      value ? `${consumer.name} may call ${a.name}.` : `${consumer.name} may no longer call ${a.name}.`,
                    )
                  }
                />
                <Label htmlFor={id}>
                  {a.name} <span className="font-mono text-xs text-muted-foreground">{a.slug}</span>
                </Label>
              </div>
            );
          })}
        </fieldset>
      </CardContent>
      <RenameDialog place={place} consumer={consumer} open={renaming} onOpenChange={setRenaming} />
    </Card>
  );
}

function RenameDialog({
  place,
  consumer,
  open,
  onOpenChange,
}: {
  place: TConsoleParams;
  consumer: TConsoleConsumer;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const { form, onSubmit, errors, pending } = useActionForm(
    ZConsumerForm,
    { values: { name: consumer.name } },
    (values) => renameConsumerAction({ ...values, ...place, consumerId: consumer.id }),
    () => {
      toast.success("Consumer renamed.");
      onOpenChange(false);
    },
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form className="grid gap-4" onSubmit={onSubmit}>
          <DialogHeading title={<>Rename {consumer.name}</>} description="Keys and grants stay as they are." />
          <FormField id={`rename-${consumer.id}`} label="Name" error={errors.name?.message}>
            <Input {...form.register("name")} />
          </FormField>
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              Save name
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
