"use client";
/**
 * The place of the flow's preview run below the canvas: the run panel (pick inputs and
 * parameters, run the document being edited, see the selected step's output) gets the
 * document and the selected step, and reports each step's outcome, which the canvas shows
 * on its nodes. Until the preview run exists this says where it will be.
 */
import type { TStepStatus } from "@/features/design/canvas/flow-canvas";

export interface TRunPanelSlotProps {
  organization: string;
  workspace: string;
  document: unknown;
  selectedStepId: string | null;
  onStepStatus?: (s: Record<string, TStepStatus>) => void;
}

/** The preview run's panel (see module doc). */
export function RunPanelSlot({ selectedStepId }: TRunPanelSlotProps) {
  return (
    <section className="rounded-md border p-3 text-sm" aria-label="Preview run" data-testid="run-panel-slot">
      <h2 className="font-semibold">Preview run</h2>
      <p className="text-muted-foreground">
        {selectedStepId ? `Selected step: ${selectedStepId}. ` : "Select a step to see its output. "}
        Running the flow from here is not available yet: save a version and use Try it on an API.
      </p>
    </section>
  );
}
