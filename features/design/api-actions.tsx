"use client";
/**
 * What a designer does to a Flow API besides publishing, each confirmed in a dialog saying what
 * will happen: unpublish from one environment, delete (refused while served: the server says
 * 409 too), and choose another source flow when its own was deleted ("Needs a source").
 */
import { useState } from "react";
import { CircleOffIcon, Trash2Icon } from "lucide-react";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { ConfirmButton } from "@/components/confirm-button";
import { deleteApiAction, setApiSourceAction, unpublishAction } from "@/features/design/actions";
import type { TFlowChoice } from "@/features/design/data";

interface TApiRef {
  organization: string;
  workspace: string;
  flowApiId: string;
  apiName: string;
}

export function UnpublishButton(p: TApiRef & { environment: { id: string; name: string }; flowVersion: number; otherEnvironments: number }) {
  return (
    <ConfirmButton
      variant="outline"
      size="sm"
      label={
        <>
          <CircleOffIcon aria-hidden="true" /> Unpublish<span className="sr-only"> from {p.environment.name}</span>
        </>
      }
      title={`Unpublish "${p.apiName}" from ${p.environment.name}?`}
      description={
        <p>
          {p.environment.name} serves flow version {p.flowVersion} now. Its callers get 404 (not found) from its address and docs page from their next call; AI
          assistants there lose its tool. Its runs and releases stay as history, and you can publish again at any time.{" "}
          {p.otherEnvironments === 0 ? "No other environment serves it: it becomes a draft again." : null}
        </p>
      }
      confirmLabel="Unpublish"
      run={() => unpublishAction({ organization: p.organization, workspace: p.workspace, flowApiId: p.flowApiId, environmentId: p.environment.id })}
      success={`Unpublished from ${p.environment.name}.`}
    />
  );
}

export function DeleteApiButton(p: TApiRef & { servedIn: string[]; apisHref: string }) {
  const served = p.servedIn.length > 0;
  return (
    <ConfirmButton
      variant="destructive"
      label={
        <>
          <Trash2Icon aria-hidden="true" /> Delete API
        </>
      }
      title={`Delete "${p.apiName}"?`}
      description={
        served ? (
          <p data-testid="delete-refused">
            It is published in {p.servedIn.join(", ")}, where callers still use it. Unpublish it from {p.servedIn.length === 1 ? "there" : "each"} first (Status
            per environment), then delete it.
          </p>
        ) : (
          <p>
            The API leaves this workspace and no longer counts against your plan&apos;s limit of APIs; its address is free for a new API. Its past runs stay in
            the console&apos;s runs and usage. This cannot be undone.
          </p>
        )
      }
      confirmLabel="Delete API"
      confirmDisabled={served}
      run={() => deleteApiAction({ organization: p.organization, workspace: p.workspace, flowApiId: p.flowApiId })}
      success={`Deleted "${p.apiName}".`}
      then={p.apisHref}
    />
  );
}

export function ChooseSourceForm(p: TApiRef & { flows: TFlowChoice[] }) {
  const [flowId, setFlowId] = useState(p.flows[0]?.id ?? "");
  const flow = p.flows.find((f) => f.id === flowId);
  if (p.flows.length === 0) {
    return <p className="text-muted-foreground">No active flow with a saved version in this workspace: create one in Flows, then choose it here.</p>;
  }
  return (
    <div className="grid min-w-0 gap-2" data-testid="choose-source">
      <FormField id="new-source-flow" label="New source flow">
        <NativeSelect value={flowId} onChange={(e) => setFlowId(e.target.value)}>
          <SelectOptions options={p.flows.map((f) => ({ value: f.id, label: `${f.name} (latest v${f.latest})` }))} />
        </NativeSelect>
      </FormField>
      <div>
        <ConfirmButton
          variant="default"
          label="Use this flow"
          title={`Use "${flow?.name}" as the source of "${p.apiName}"?`}
          description={
            <p>
              The API&apos;s next draft uses version {flow?.latest} of {flow?.name}: Try it runs it and Publish offers its versions. What environments serve now
              does not change until you publish again.
            </p>
          }
          confirmLabel="Use this flow"
          disabled={!flow}
          run={() => setApiSourceAction({ organization: p.organization, workspace: p.workspace, flowApiId: p.flowApiId, flowId })}
          success={`"${p.apiName}" now uses ${flow?.name}.`}
        />
      </div>
    </div>
  );
}
