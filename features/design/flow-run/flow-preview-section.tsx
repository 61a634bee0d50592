"use client";
/**
 * The flow preview under the JSON editor (flow-editor.tsx): the document being edited (parsed
 * from the editor's text; while it is not JSON, the last text that was), a step picker (the
 * document's step ids) and `FlowRunPanel` for the picked step.
 */
import { useMemo, useRef, useState } from "react";
import { Label } from "@/components/ui/label";
import { FlowRunPanel } from "@/features/design/flow-run/flow-run-panel";
import { selectClass } from "@/features/design/run-request-fields";

/** The step ids of a document (those that are strings), in its order. */
export function stepIdsOf(document: unknown): string[] {
  const steps = (document as { steps?: unknown } | null)?.steps;
  return Array.isArray(steps) ? steps.flatMap((s) => (typeof (s as { id?: unknown })?.id === "string" ? [(s as { id: string }).id] : [])) : [];
}

export function FlowPreviewSection(p: { organization: string; workspace: string; text: string }) {
  const lastParsed = useRef<unknown>(null);
  const document = useMemo(() => {
    try {
      lastParsed.current = JSON.parse(p.text);
    } catch {
      // Keep the last document that parsed while the text is being typed.
    }
    return lastParsed.current;
  }, [p.text]);
  const stepIds = stepIdsOf(document);
  const [picked, setPicked] = useState<string | null>(null);
  const selected = picked !== null && stepIds.includes(picked) ? picked : (stepIds[stepIds.length - 1] ?? null);
  return (
    <div className="grid min-w-0 gap-3">
      <div className="grid max-w-sm min-w-0 gap-1">
        <Label htmlFor="preview-step">Step to show</Label>
        <select
          id="preview-step"
          className={selectClass}
          value={selected ?? ""}
          onChange={(e) => setPicked(e.target.value || null)}
          disabled={stepIds.length === 0}
        >
          {stepIds.length === 0 ? <option value="">No steps yet</option> : null}
          {stepIds.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      </div>
      <FlowRunPanel organization={p.organization} workspace={p.workspace} document={document} selectedStepId={selected} />
    </div>
  );
}
