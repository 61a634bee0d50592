"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useAction } from "next-safe-action/hooks";
import { toast } from "sonner";
import { Switch } from "@/components/ui/switch";
import { Label } from "@/components/ui/label";
import { setAiAccessAction } from "@/features/console/actions";
import type { TServedApi } from "@/lib/serving/list-served-apis";

/**
 * The "Available to AI assistants" switch of one served API. Disabled, with the reason
 * beside it, when it cannot be turned on (plan without AI access, colliding names) and is
 * off; a refusal from the server is shown next to the switch.
 */
export function AiSwitch({ organization, environment, api }: { organization: string; environment: string; api: TServedApi }) {
  const router = useRouter();
  const { executeAsync, isPending } = useAction(setAiAccessAction);
  const [error, setError] = useState<string | null>(null);
  const id = `ai-${api.flowApiId}`;
  const disabled = isPending || (!api.aiAccess && api.aiBlockedReason !== null);
  const reason = error ?? (!api.aiAccess ? api.aiBlockedReason : null);
  return (
    <div className="grid gap-1">
      <div className="flex items-center gap-3">
        <Switch
          id={id}
          checked={api.aiAccess}
          disabled={disabled}
          aria-describedby={reason ? `${id}-reason` : undefined}
          onCheckedChange={async (enabled) => {
            setError(null);
            const r = await executeAsync({ organization, environment, flowApiId: api.flowApiId, enabled });
            if (r?.serverError) {
              setError(r.serverError.message);
              return;
            }
            toast.success(`${api.name}: ${enabled ? "available to" : "hidden from"} AI assistants.`);
            router.refresh();
          }}
        />
        <Label htmlFor={id}>Available to AI assistants</Label>
      </div>
      {reason ? (
        <p id={`${id}-reason`} className="text-sm text-muted-foreground">
          {reason}
        </p>
      ) : null}
    </div>
  );
}
