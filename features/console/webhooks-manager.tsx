"use client";
import { useRef, useState, type RefObject } from "react";
import Link from "next/link";
import { TriangleAlertIcon, WebhookIcon } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, SubmitButton } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle, TitledCard } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { ConfirmButton } from "@/components/confirm-button";
import { EmptyState } from "@/features/shell/empty-state";
import { useActionForm, useToastAction } from "@/components/action-form";
import { SecretDialog, type TShownSecret } from "@/features/console/secret-dialog";
import { formatTime } from "@/features/console/format";
import { createWebhookAction, deleteWebhookAction, enableWebhookAction } from "@/features/console/actions";
import { ZWebhookForm } from "@/features/console/schemas";
import type { TWebhookEndpointRow } from "@/lib/webhooks/webhook-endpoints";
import { consolePath } from "@/features/shell/routes";
import type { TConsoleParams } from "@/features/console/console-layout";

const EVENTS = [
  { value: "run.completed", label: "Run completed" },
  { value: "run.failed", label: "Run failed" },
  { value: "run.cancelled", label: "Run cancelled" },
] as const;

const DELIVERY_VARIANT = { pending: "secondary", delivered: "success", failed: "destructive" } as const;

/** A consumer's webhook endpoints: add (the secret shown once), state, re-enable, delete, recent deliveries. */
export function WebhooksManager({ place, consumerId, endpoints }: { place: TConsoleParams; consumerId: string; endpoints: TWebhookEndpointRow[] }) {
  const [secret, setSecret] = useState<TShownSecret | null>(null);
  // The secret dialog gives focus back to "Add webhook" when it closes.
  const addButton = useRef<HTMLButtonElement>(null);
  return (
    <div className="grid gap-6">
      <AddWebhookForm place={place} consumerId={consumerId} buttonRef={addButton} onSecret={(secret) => setSecret({ title: "Signing secret", secret })} />
      {endpoints.length === 0 ? (
        <EmptyState
          icon={WebhookIcon}
          title="No webhooks yet"
          description="Add an https URL to be told when this consumer's runs complete, fail or are cancelled, instead of polling."
        />
      ) : (
        <ul className="grid gap-4" aria-label="Webhook endpoints">
          {endpoints.map((e) => (
            <li key={e.id}>
              <EndpointCard place={place} endpoint={e} />
            </li>
          ))}
        </ul>
      )}
      <SecretDialog kind="webhook" shown={secret} onClose={() => setSecret(null)} returnFocusTo={() => addButton.current} />
    </div>
  );
}

function AddWebhookForm({
  place,
  consumerId,
  buttonRef,
  onSecret,
}: {
  place: TConsoleParams;
  consumerId: string;
  buttonRef: RefObject<HTMLButtonElement | null>;
  onSecret: (s: string) => void;
}) {
  const { form, onSubmit, errors, pending } = useActionForm(
    ZWebhookForm,
    { defaultValues: { url: "", events: EVENTS.map((e) => e.value) } },
    (values) => createWebhookAction({ ...values, ...place, consumerId }),
    (created) => {
      onSecret(created.secret);
      form.reset();
    },
  );
  const events = form.watch("events");
  return (
    <TitledCard title="Add a webhook" description="An https URL on a public address (or a host of the environment's allow-list, in Settings).">
      <form noValidate className="grid max-w-xl gap-4" onSubmit={onSubmit}>
        <FormField id="webhook-url" label="URL" error={errors.url?.message}>
          <Input type="url" placeholder="https://example.com/hooks/flow-api" spellCheck={false} {...form.register("url")} />
        </FormField>
        <fieldset className="grid gap-2" aria-describedby={errors.events ? "webhook-events-error" : undefined}>
          <legend className="mb-1 text-sm font-medium">Events</legend>
          {EVENTS.map((e) => (
            <div key={e.value} className="flex items-center gap-2">
              <input
                id={`event-${e.value}`}
                type="checkbox"
                className="size-4 accent-primary"
                checked={events.includes(e.value)}
                onChange={(ev) =>
                  form.setValue("events", ev.target.checked ? [...events, e.value] : events.filter((x) => x !== e.value), { shouldValidate: true })
                }
              />
              <Label htmlFor={`event-${e.value}`}>
                {e.label} <span className="font-mono text-xs text-muted-foreground">{e.value}</span>
              </Label>
            </div>
          ))}
          {errors.events ? (
            <p id="webhook-events-error" className="text-sm text-destructive">
              {errors.events.message}
            </p>
          ) : null}
        </fieldset>
        <div>
          <SubmitButton ref={buttonRef} pending={pending}>
            Add webhook
          </SubmitButton>
        </div>
      </form>
    </TitledCard>
  );
}

function EndpointCard({ place, endpoint }: { place: TConsoleParams; endpoint: TWebhookEndpointRow }) {
  const { run, pending } = useToastAction();
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-1">
          <CardTitle className="font-mono text-sm break-all">{endpoint.url}</CardTitle>
          <CardDescription>
            {endpoint.enabled ? <Badge variant="success">enabled</Badge> : <Badge variant="destructive">disabled</Badge>} · {endpoint.events.join(", ")} · added{" "}
            {formatTime(endpoint.createdAt)}
            {endpoint.consecutiveFailures ? ` · ${endpoint.consecutiveFailures} failed in a row` : ""}
          </CardDescription>
        </div>
        <div className="flex gap-2">
          {!endpoint.enabled ? (
            <Button
              size="sm"
              variant="outline"
              disabled={pending}
              aria-label={`Re-enable ${endpoint.url}`}
              onClick={() => run(enableWebhookAction({ ...place, endpointId: endpoint.id }), "Webhook enabled again.")}
            >
              Re-enable
            </Button>
          ) : null}
          <ConfirmButton
            size="sm"
            label="Delete"
            ariaLabel={`Delete ${endpoint.url}`}
            title="Delete this webhook?"
            description="No more deliveries go to it, and its delivery log is removed. This cannot be undone."
            confirmLabel="Delete webhook"
            confirmVariant="destructive"
            run={() => deleteWebhookAction({ ...place, endpointId: endpoint.id })}
            success="Webhook deleted."
          />
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!endpoint.enabled ? (
          <Alert variant="destructive">
            <TriangleAlertIcon aria-hidden="true" />
            <AlertTitle>No deliveries go to this endpoint</AlertTitle>
            <AlertDescription>{endpoint.disabledReason ?? "It was disabled."} Fix the receiver, then re-enable it.</AlertDescription>
          </Alert>
        ) : null}
        {endpoint.deliveries.length === 0 ? (
          <p className="text-sm text-muted-foreground">No deliveries yet: one is sent when a run of this consumer ends.</p>
        ) : (
          <Table aria-label={`Recent deliveries to ${endpoint.url}`}>
            <TableHeaderRow columns={["Time", "Event", "Run", "State", ["Attempts", "text-right"], "Response"]} />
            <TableBody>
              {endpoint.deliveries.map((d) => (
                <TableRow key={d.id}>
                  <TableCell className="whitespace-nowrap">{formatTime(d.lastAttemptAt ?? d.createdAt)}</TableCell>
                  <TableCell className="font-mono text-xs">{d.event}</TableCell>
                  <TableCell>
                    <Link
                      className="font-mono text-xs underline underline-offset-4"
                      href={`${consolePath(place.organization, place.environment, "runs")}/${d.runId}`}
                    >
                      {d.runId.slice(0, 8)}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <Badge variant={DELIVERY_VARIANT[d.state]}>{d.state}</Badge>
                  </TableCell>
                  <TableCell className="text-right">{d.attempts}</TableCell>
                  <TableCell className="max-w-72">
                    <span className="font-mono text-xs">{d.lastStatus !== null ? `HTTP ${d.lastStatus}` : (d.lastError ?? "—")}</span>
                    {d.responseHead ? <span className="block truncate font-mono text-xs text-muted-foreground">{d.responseHead}</span> : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
