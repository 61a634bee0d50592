"use client";
import { TriangleAlertIcon } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { CopyButton } from "@/features/console/copy-button";

export interface TShownSecret {
  title: string;
  secret: string;
  prefix?: string;
  note?: string;
}

const TEXTS = {
  key: {
    description: "Copy the key now and store it safely, for example in a secrets manager.",
    warningTitle: "This is the only time the key is shown",
    warning: (s: TShownSecret | null) =>
      `After you close this window only its prefix ${s?.prefix}… is visible. A lost key cannot be recovered: rotate or revoke it.`,
    label: "API key",
    copy: "Copy key",
    done: "I have stored the key",
  },
  webhook: {
    description: "Your receiver verifies each delivery's webhook-signature header with it (Standard Webhooks).",
    warningTitle: "This is the only time the secret is shown",
    warning: () => "Copy it now and store it with your receiver. A lost secret cannot be shown again: delete the endpoint and add it anew.",
    label: "Secret",
    copy: "Copy secret",
    done: "I have stored the secret",
  },
};

/**
 * Shows a new API key's or webhook signing secret once, with a copy button and the warning that
 * it will not be shown again. The dialog opens when a server action has answered, not from a
 * trigger, and the button that started it was disabled meanwhile (so the dialog would return
 * focus to <body>): on closing, focus goes to `returnFocusTo()`, the button that opened it.
 */
export function SecretDialog({
  kind,
  shown,
  onClose,
  returnFocusTo,
}: {
  kind: keyof typeof TEXTS;
  shown: TShownSecret | null;
  onClose: () => void;
  returnFocusTo: () => HTMLElement | null | undefined;
}) {
  const t = TEXTS[kind];
  return (
    <Dialog open={shown !== null} onOpenChange={(open) => (!open ? onClose() : undefined)}>
      <DialogContent returnFocusTo={returnFocusTo}>
        <DialogHeading title={shown?.title} description={t.description} />
        <Alert variant="destructive">
          <TriangleAlertIcon aria-hidden="true" />
          <AlertTitle>{t.warningTitle}</AlertTitle>
          <AlertDescription>{t.warning(shown)}</AlertDescription>
        </Alert>
        <div className="grid gap-1.5">
          <Label htmlFor={`new-${kind}-secret`}>{t.label}</Label>
          <div className="flex gap-2">
            <Input id={`new-${kind}-secret`} readOnly value={shown?.secret ?? ""} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            <CopyButton text={shown?.secret ?? ""} label={t.copy} />
          </div>
          {shown?.note ? <p className="text-sm text-muted-foreground">{shown.note}</p> : null}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>{t.done}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
