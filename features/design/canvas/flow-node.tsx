"use client";
/**
 * A node of the canvas. Target handles (top) are the options naming sources or a result's
 * `from`; the source handle (bottom) is its output; a hidden left handle receives the dashed
 * edges of the parameters a step reads. Shows the validator's problems and, after a preview
 * run, the step's row count or error.
 */
import { memo } from "react";
import { Handle, Position, type NodeProps, type Node } from "@xyflow/react";
import { CircleAlertIcon } from "lucide-react";
import { cn } from "@/lib/utils";
import { PARAMS_HANDLE, type TCanvasNodeData } from "@/features/design/canvas/flow-graph-model";
import type { TStepStatus } from "@/features/design/flow-run/flow-run-panel";

export interface TFlowNodeData extends TCanvasNodeData {
  problems: string[];
  status?: TStepStatus;
}
export type TFlowNode = Node<TFlowNodeData, "flow">;

const KIND_STYLE: Record<TCanvasNodeData["kind"], string> = {
  input: "border-l-4 border-l-sky-600 dark:border-l-sky-400",
  parameter: "border-l-4 border-l-violet-600 dark:border-l-violet-400",
  step: "border-l-4 border-l-muted-foreground",
  result: "border-l-4 border-l-emerald-600 dark:border-l-emerald-400",
};

const HEADER = 56;
const ROW = 20;

function FlowNodeView({ data, selected }: NodeProps<TFlowNode>) {
  const handles = data.handles;
  const hasProblems = data.problems.length > 0;
  return (
    <div
      className={cn(
        "relative w-52 rounded-md border bg-card px-3 py-1 text-left text-card-foreground shadow-sm",
        KIND_STYLE[data.kind],
        hasProblems && "border-destructive ring-1 ring-destructive",
        selected && "ring-2 ring-ring",
      )}
      data-testid={`node-${data.kind}-${data.name}`}
    >
      {handles.length > 0 ? (
        <div style={{ height: ROW }} className="-mx-3 flex border-b font-mono text-[11px] leading-5 text-muted-foreground">
          {handles.map((h) => (
            <span key={h.key} className="min-w-0 flex-1 truncate px-1 text-center" title={h.many ? `${h.key} (several)` : h.key}>
              {h.key}
              {h.many ? "…" : ""}
            </span>
          ))}
        </div>
      ) : null}
      <div style={{ height: HEADER }} className="grid content-start">
        <div className="truncate text-xs leading-4 text-muted-foreground">{data.title}</div>
        <div className="truncate font-mono text-sm leading-5 font-medium">{data.name || "(no name)"}</div>
        <div className="flex gap-1 text-xs leading-4">
          {hasProblems ? (
            <span className="inline-flex items-center gap-1 rounded bg-destructive/15 px-1 text-destructive dark:text-red-300" title={data.problems.join("\n")}>
              <CircleAlertIcon aria-hidden="true" className="size-3" />
              {data.problems.length} problem{data.problems.length === 1 ? "" : "s"}
            </span>
          ) : null}
          {data.status?.state === "ok" ? (
            <span className="rounded bg-emerald-600/15 px-1 text-emerald-800 dark:text-emerald-300" data-testid="node-rows">
              {data.status.rows ?? "?"} row{data.status.rows === 1 ? "" : "s"}
            </span>
          ) : data.status?.state === "error" ? (
            <span className="truncate rounded bg-destructive/15 px-1 text-destructive dark:text-red-300" title={data.status.error} data-testid="node-error">
              Failed{data.status.error ? `: ${data.status.error}` : ""}
            </span>
          ) : null}
        </div>
      </div>
      {handles.map((h, i) => (
        <Handle
          key={h.key}
          id={h.key}
          type="target"
          position={Position.Top}
          style={{ left: `${((i + 0.5) / handles.length) * 100}%` }}
          className="!size-3"
          title={`Input "${h.key}" of ${data.name}`}
        />
      ))}
      {data.kind === "step" ? <Handle id={PARAMS_HANDLE} type="target" position={Position.Left} isConnectable={false} className="!opacity-0" /> : null}
      {data.output || data.kind === "parameter" ? (
        <Handle
          type="source"
          position={data.kind === "parameter" ? Position.Right : Position.Bottom}
          isConnectable={data.output}
          className={cn("!size-3", data.kind === "parameter" && "!opacity-0")}
          title={`Output of ${data.name}`}
        />
      ) : null}
    </div>
  );
}

export const FlowNodeComponent = memo(FlowNodeView);
