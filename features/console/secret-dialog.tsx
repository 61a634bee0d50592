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
  prefix: string;
  note?: string;
}

/** Shows a new key's secret once, with a copy button and the warning that it will not be shown again. */
export function SecretDialog({ shown, onClose }: { shown: TShownSecret | null; onClose: () => void }) {
  return (
    <Dialog open={shown !== null} onOpenChange={(open) => (!open ? onClose() : undefined)}>
      <DialogContent>
        <DialogHeading title={shown?.title} description="Copy the key now and store it safely, for example in a secrets manager." />
        <Alert variant="destructive">
          <TriangleAlertIcon aria-hidden="true" />
          <AlertTitle>This is the only time the key is shown</AlertTitle>
          <AlertDescription>
            After you close this window only its prefix {shown?.prefix}… is visible. A lost key cannot be recovered: rotate or revoke it.
          </AlertDescription>
        </Alert>
        <div className="grid gap-1.5">
          <Label htmlFor="new-key-secret">API key</Label>
          <div className="flex gap-2">
            <Input id="new-key-secret" readOnly value={shown?.secret ?? ""} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            <CopyButton text={shown?.secret ?? ""} label="Copy key" />
          </div>
          {shown?.note ? <p className="text-sm text-muted-foreground">{shown.note}</p> : null}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>I have stored the key</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
