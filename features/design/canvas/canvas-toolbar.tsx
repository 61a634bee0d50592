"use client";
/** The canvas's toolbar: undo and redo (the workbench's history of documents), auto layout, fit view, and starting from an empty document. */
import { EraserIcon, LayoutGridIcon, MaximizeIcon, Redo2Icon, Undo2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { TDocumentHistory } from "@/features/design/canvas/use-document-history";

/** The toolbar above the canvas. */
export function CanvasToolbar(props: { history: TDocumentHistory; onAutoLayout: () => void; onFitView: () => void; onStartEmpty: () => void }) {
  const { history } = props;
  const button = { type: "button", variant: "outline", size: "sm" } as const;
  return (
    <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Canvas">
      <Button {...button} onClick={history.undo} disabled={!history.canUndo} aria-keyshortcuts="Control+Z">
        <Undo2Icon aria-hidden="true" /> Undo
      </Button>
      <Button {...button} onClick={history.redo} disabled={!history.canRedo} aria-keyshortcuts="Control+Shift+Z">
        <Redo2Icon aria-hidden="true" /> Redo
      </Button>
      <Button {...button} onClick={props.onAutoLayout}>
        <LayoutGridIcon aria-hidden="true" /> Auto layout
      </Button>
      <Button {...button} onClick={props.onFitView}>
        <MaximizeIcon aria-hidden="true" /> Fit view
      </Button>
      <Button {...button} onClick={props.onStartEmpty}>
        <EraserIcon aria-hidden="true" /> Start empty
      </Button>
    </div>
  );
}
