"use client";
/**
 * A button that asks first (a dialog with what will happen) and then runs a server action
 * with `useToastAction` (on success the page refreshes or goes to `then`). Used for trash,
 * restore, delete, publish and revoke, so every consequential step in the design tool and the
 * console is explained before it happens.
 */
import { useState, type ReactNode } from "react";
import { Button, type TButtonProps } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { useToastAction, type TActionRefusal } from "@/components/action-form";

export function ConfirmButton(props: {
  label: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  variant?: TButtonProps["variant"];
  /** The confirming button's variant (default: destructive for a destructive button, else default). */
  confirmVariant?: TButtonProps["variant"];
  size?: TButtonProps["size"];
  /** The button's accessible name when its label alone is ambiguous (one per table row). */
  ariaLabel?: string;
  disabled?: boolean;
  /** The dialog opens but cannot confirm (its description says why). */
  confirmDisabled?: boolean;
  run: () => Promise<TActionRefusal | undefined>;
  success: string;
  then?: string;
}) {
  const { run, pending } = useToastAction();
  const [open, setOpen] = useState(false);
  const confirm = async () => {
    if (await run(props.run(), props.success, props.then)) setOpen(false);
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant={props.variant ?? "outline"} size={props.size} disabled={props.disabled} aria-label={props.ariaLabel}>
          {props.label}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{props.title}</DialogTitle>
          <DialogDescription asChild>
            <div>{props.description}</div>
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button
            variant={props.confirmVariant ?? (props.variant === "destructive" ? "destructive" : "default")}
            onClick={confirm}
            disabled={pending || props.confirmDisabled}
          >
            {props.confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
