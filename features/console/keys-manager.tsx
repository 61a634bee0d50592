"use client";
import { useRef, useState, type RefObject } from "react";
import { useRouter } from "next/navigation";
import { useAction } from "next-safe-action/hooks";
import { toast } from "sonner";
import { KeyRoundIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { TitledCard } from "@/components/ui/card";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { EmptyState } from "@/features/shell/empty-state";
import { useActionForm } from "@/components/action-form";
import { createKeyAction, revokeKeyAction, rotateKeyAction } from "@/features/console/actions";
import { ZKeyForm } from "@/features/console/schemas";
import { formatTime } from "@/features/console/format";
import { ConfirmButton } from "@/components/confirm-button";
import { SecretDialog, type TShownSecret } from "@/features/console/secret-dialog";
import type { TConsoleKey } from "@/lib/consumers/list-consumers";
import type { TConsoleParams } from "@/features/console/console-layout";

type TKeyItem = TConsoleKey & { consumerId: string; consumerName: string };

const STATE_BADGE = {
  active: <Badge variant="success">Active</Badge>,
  expiring: <Badge variant="warning">Expires</Badge>,
  expired: <Badge variant="outline">Expired</Badge>,
  revoked: <Badge variant="destructive">Revoked</Badge>,
} as const;

/** API keys: create for a consumer (secret shown once), revoke, rotate with an overlap. */
export function KeysManager({
  place,
  keys,
  consumers,
  selectedConsumer,
}: {
  place: TConsoleParams;
  keys: TKeyItem[];
  consumers: { id: string; name: string }[];
  selectedConsumer?: string;
}) {
  const [shown, setShown] = useState<TShownSecret | null>(null);
  const [rotating, setRotating] = useState<TKeyItem | null>(null);
  // Where focus goes when the secret dialog closes: the button that opened it ("Create key", or
  // the key's "Rotate"; after a rotation that revoked it at once, the new key's "Rotate").
  const createButton = useRef<HTMLButtonElement>(null);
  const rotateButton = useRef<HTMLButtonElement | null>(null);
  const table = useRef<HTMLDivElement>(null);
  const opener = useRef<() => HTMLElement | null | undefined>(() => null);
  const rotateButtonOf = (prefix: string | undefined) => table.current?.querySelector<HTMLElement>(`tr[data-key-prefix="${prefix}"] button`);
  return (
    <div className="grid gap-6" ref={table}>
      <TitledCard title="Create a key">
        {consumers.length === 0 ? (
          <p className="text-sm text-muted-foreground">Create a consumer first: every key belongs to one.</p>
        ) : (
          <CreateKeyForm
            place={place}
            consumers={consumers}
            selectedConsumer={selectedConsumer}
            buttonRef={createButton}
            onCreated={(s) => {
              opener.current = () => createButton.current;
              setShown(s);
            }}
          />
        )}
      </TitledCard>
      {keys.length === 0 ? (
        <EmptyState
          icon={KeyRoundIcon}
          title="No keys yet"
          description="A key lets a consumer call the APIs it is granted. Its secret is shown once, when it is created."
        />
      ) : (
        <Table>
          <TableHeaderRow columns={["Key", "Consumer", "State", "Created", "Expires", "Last used", ["Actions", "sr-only"]]} />
          <TableBody>
            {keys.map((k) => (
              <TableRow key={k.id} data-key-prefix={k.prefix}>
                <TableCell>
                  <div className="font-medium">{k.name}</div>
                  <div className="font-mono text-xs text-muted-foreground">{k.prefix}…</div>
                </TableCell>
                <TableCell>{k.consumerName}</TableCell>
                <TableCell>{STATE_BADGE[k.state]}</TableCell>
                <TableCell>{formatTime(k.createdAt)}</TableCell>
                <TableCell>{k.expiresAt ? formatTime(k.expiresAt) : "Never"}</TableCell>
                <TableCell>{k.lastUsedAt ? formatTime(k.lastUsedAt) : "Never"}</TableCell>
                <TableCell className="text-right">
                  {k.state === "active" || k.state === "expiring" ? (
                    <div className="flex justify-end gap-2">
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={(e) => {
                          rotateButton.current = e.currentTarget;
                          setRotating(k);
                        }}
                        aria-label={`Rotate key ${k.prefix}`}
                      >
                        Rotate
                      </Button>
                      <ConfirmButton
                        size="sm"
                        label="Revoke"
                        ariaLabel={`Revoke key ${k.prefix}`}
                        title={`Revoke key ${k.prefix}…?`}
                        description="The next call with this key is refused (401). This cannot be undone."
                        confirmLabel="Revoke key"
                        confirmVariant="destructive"
                        run={() => revokeKeyAction({ ...place, keyId: k.id })}
                        success={`Key ${k.prefix}… revoked.`}
                      />
                    </div>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <RotateDialog
        place={place}
        keyItem={rotating}
        onClose={() => setRotating(null)}
        onRotated={(s) => {
          const old = rotateButton.current;
          opener.current = () => (old?.isConnected ? old : (rotateButtonOf(s.prefix) ?? createButton.current));
          setShown(s);
        }}
      />
      <SecretDialog kind="key" shown={shown} onClose={() => setShown(null)} returnFocusTo={() => opener.current()} />
    </div>
  );
}

function CreateKeyForm({
  place,
  consumers,
  selectedConsumer,
  buttonRef,
  onCreated,
}: {
  place: TConsoleParams;
  consumers: { id: string; name: string }[];
  selectedConsumer?: string;
  buttonRef: RefObject<HTMLButtonElement | null>;
  onCreated: (s: TShownSecret) => void;
}) {
  const { form, onSubmit, errors, pending } = useActionForm(
    ZKeyForm,
    { defaultValues: { consumerId: consumers.some((c) => c.id === selectedConsumer) ? selectedConsumer : consumers[0].id, name: "", expiresAt: "" } },
    (values) => createKeyAction({ ...values, ...place, expiresAt: values.expiresAt ? new Date(`${values.expiresAt}T23:59:59Z`).toISOString() : undefined }),
    (created, values) => {
      const consumer = consumers.find((c) => c.id === values.consumerId)?.name;
      onCreated({ title: `New key for ${consumer}`, secret: created.secret, prefix: created.prefix });
      form.reset({ consumerId: values.consumerId, name: "", expiresAt: "" });
    },
  );
  return (
    <form className="grid gap-4 md:grid-cols-[1fr_1fr_1fr_auto] md:items-start" onSubmit={onSubmit}>
      <FormField id="key-consumer" label="Consumer" error={errors.consumerId?.message}>
        <NativeSelect {...form.register("consumerId")}>
          <SelectOptions options={consumers.map((c) => ({ value: c.id, label: c.name }))} />
        </NativeSelect>
      </FormField>
      <FormField id="key-name" label="Key name (optional)" error={errors.name?.message}>
        <Input placeholder="e.g. production server" {...form.register("name")} />
      </FormField>
      <FormField id="key-expires" label="Expires (optional, end of day UTC)" error={errors.expiresAt?.message}>
        <Input type="date" {...form.register("expiresAt")} />
      </FormField>
      <Button ref={buttonRef} type="submit" disabled={pending} className="md:mt-6">
        Create key
      </Button>
    </form>
  );
}

const OVERLAPS = [
  { minutes: 0, label: "None: the old key stops now" },
  { minutes: 60, label: "1 hour" },
  { minutes: 24 * 60, label: "1 day" },
  { minutes: 7 * 24 * 60, label: "7 days" },
];

function RotateDialog({
  place,
  keyItem,
  onClose,
  onRotated,
}: {
  place: TConsoleParams;
  keyItem: TKeyItem | null;
  onClose: () => void;
  onRotated: (s: TShownSecret) => void;
}) {
  const router = useRouter();
  const { executeAsync, isPending } = useAction(rotateKeyAction);
  const [overlap, setOverlap] = useState(24 * 60);
  return (
    <Dialog open={keyItem !== null} onOpenChange={(o) => (!o ? onClose() : undefined)}>
      <DialogContent>
        <DialogHeading
          title={<>Rotate key {keyItem?.prefix}…</>}
          description={
            <>
              A new key replaces this one. During the overlap both work, so {keyItem?.consumerName} can switch without an outage; then the old key is refused.
            </>
          }
        />
        <FormField id="rotate-overlap" label="Overlap" className="gap-1.5">
          <NativeSelect value={overlap} onChange={(e) => setOverlap(Number(e.target.value))}>
            <SelectOptions options={OVERLAPS.map((o) => ({ value: o.minutes, label: o.label }))} />
          </NativeSelect>
        </FormField>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={isPending}
            onClick={async () => {
              if (!keyItem) return;
              const r = await executeAsync({ ...place, keyId: keyItem.id, overlapMinutes: overlap });
              if (r?.serverError) return void toast.error(r.serverError.message);
              if (!r?.data) return;
              onClose();
              onRotated({
                title: `New key for ${keyItem.consumerName}`,
                secret: r.data.secret,
                prefix: r.data.prefix,
                note: `The old key ${keyItem.prefix}… works until ${formatTime(r.data.oldKeyExpiresAt)}.`,
              });
              router.refresh();
            }}
          >
            Rotate key
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
