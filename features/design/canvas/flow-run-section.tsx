"use client";
/**
 * The preview run below the editor: a step picker (following the canvas's selection, and
 * selecting there) and the run panel. While the text is not JSON, the last document that
 * parsed is run.
 */
import { useRef } from "react";
import { Label } from "@/components/ui/label";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { FlowRunPanel, type TStepStatus } from "@/features/design/flow-run/flow-run-panel";

export interface TFlowRunSectionProps {
  organization: string;
  workspace: string;
  /** The document as it is now; null while the text is not JSON. */
  document: unknown;
  /** The step picked here or on the canvas; null: the last step. */
  selectedStepId: string | null;
  onSelectStep: (stepId: string) => void;
  onStepStatus?: (s: Record<string, TStepStatus>) => void;
}

/** The step ids of a document (those that are strings), in its order. */
export function stepIdsOf(document: unknown): string[] {
  const steps = (document as { steps?: unknown } | null)?.steps;
  return Array.isArray(steps) ? steps.flatMap((s) => (typeof (s as { id?: unknown })?.id === "string" ? [(s as { id: string }).id] : [])) : [];
}

/** The preview run (see module doc). */
export function FlowRunSection(p: TFlowRunSectionProps) {
  const lastParsed = useRef<unknown>(null);
  if (p.document !== null) lastParsed.current = p.document;
  const document = lastParsed.current;
  const stepIds = stepIdsOf(document);
  const shown = p.selectedStepId !== null && stepIds.includes(p.selectedStepId) ? p.selectedStepId : (stepIds[stepIds.length - 1] ?? null);
  return (
    <div className="grid min-w-0 gap-3">
      <div className="grid max-w-sm min-w-0 gap-1">
        <Label htmlFor="preview-step">Step to show</Label>
        <NativeSelect id="preview-step" value={shown ?? ""} onChange={(e) => e.target.value && p.onSelectStep(e.target.value)} disabled={stepIds.length === 0}>
          {stepIds.length === 0 ? <option value="">No steps yet</option> : null}
          <SelectOptions options={stepIds.map((id) => ({ value: id, label: id }))} />
        </NativeSelect>
      </div>
      <FlowRunPanel organization={p.organization} workspace={p.workspace} document={document} selectedStepId={shown} onStepStatus={p.onStepStatus} />
    </div>
  );
}
