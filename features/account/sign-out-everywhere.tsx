"use client";
import { useAction } from "next-safe-action/hooks";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogHeading, DialogTrigger } from "@/components/ui/dialog";
import { signOutEverywhereAction } from "@/features/account/actions";

export function SignOutEverywhere() {
  const { executeAsync, isPending } = useAction(signOutEverywhereAction);
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline">Sign out everywhere</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeading title="Sign out everywhere?" description="Every browser signed in as you, this one included, is signed out at once." />
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button
            variant="destructive"
            disabled={isPending}
            onClick={async () => {
              const result = await executeAsync();
              if (result?.serverError) toast.error(result.serverError.message);
            }}
          >
            Sign out everywhere
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
