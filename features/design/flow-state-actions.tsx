"use client";
/** Trash, restore and delete permanently, each confirmed and explained (APIs keep serving). */
import { ArchiveRestoreIcon, Trash2Icon } from "lucide-react";
import { ConfirmButton } from "@/components/confirm-button";
import { deleteFlowAction, restoreFlowAction, trashFlowAction } from "@/features/design/actions";

export function FlowStateActions(p: {
  organization: string;
  workspace: string;
  flowId: string;
  flowName: string;
  state: "active" | "trashed";
  apiCount: number;
  flowsHref: string;
}) {
  const ref = { organization: p.organization, workspace: p.workspace, flowId: p.flowId };
  const apis = p.apiCount === 0 ? "No API uses this flow." : `${p.apiCount} API${p.apiCount === 1 ? " uses" : "s use"} this flow.`;
  // What happens to the APIs is only said when there are some: "They will show..." after "No API uses this flow." reads as nonsense.
  const none = p.apiCount === 0;
  if (p.state === "active") {
    return (
      <ConfirmButton
        label={
          <>
            <Trash2Icon aria-hidden="true" /> Move to trash
          </>
        }
        title={`Move "${p.flowName}" to the trash?`}
        description={
          <p>
            {none
              ? `${apis} You can restore it from the trash.`
              : `${apis} Their pages will show “Source in trash” and they cannot be published again until you restore the flow. What is already published keeps serving.`}
          </p>
        }
        confirmLabel="Move to trash"
        run={() => trashFlowAction(ref)}
        success="The flow is in the trash."
      />
    );
  }
  return (
    <>
      <ConfirmButton
        label={
          <>
            <ArchiveRestoreIcon aria-hidden="true" /> Restore
          </>
        }
        title={`Restore "${p.flowName}"?`}
        description={<p>The flow becomes active again; its APIs can be published again.</p>}
        confirmLabel="Restore"
        run={() => restoreFlowAction(ref)}
        success="The flow is restored."
      />
      <ConfirmButton
        variant="destructive"
        label="Delete permanently"
        title={`Delete "${p.flowName}" permanently?`}
        description={
          <p>
            This cannot be undone.{" "}
            {none
              ? apis
              : `${apis} They will show “Needs a source” and can no longer be published from this flow, but every published release keeps serving callers exactly as before.`}
          </p>
        }
        confirmLabel="Delete permanently"
        run={() => deleteFlowAction(ref)}
        success="The flow is deleted permanently."
        then={p.flowsHref}
      />
    </>
  );
}
