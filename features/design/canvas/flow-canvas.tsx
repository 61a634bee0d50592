"use client";
/**
 * The canvas view of the flow document (@xyflow/react): palette left, graph in the middle (a
 * toolbar above it: undo, redo, auto layout, fit view, start empty), the selected node's form right. The graph is derived from the document (flow-graph-model.ts);
 * every edit (add, connect where `canConnect` allows, delete, edit options) makes a new
 * document. Node positions are the canvas's own, not in the document (layout.ts places nodes
 * without one). Keyboard: Tab between nodes, Enter selects, arrows move, Delete removes,
 * Ctrl+Z / Ctrl+Shift+Z undo and redo; an entry of the palette added with Enter goes to a free
 * place in view (placement.ts), or the view moves to it. The overview (minimap) can be hidden.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTheme } from "next-themes";
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useUpdateNodeInternals,
  type Connection,
  type Edge,
  type IsValidConnection,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { EraserIcon, LayoutGridIcon, MapIcon, MaximizeIcon, Redo2Icon, Undo2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { documentToGraph, nodeIdOfPointer, type TCanvasNode, type TCanvasStepType, type TFlowDoc } from "@/features/design/canvas/flow-graph-model";
import { canConnect, connect, removeFromDocument } from "@/features/design/canvas/flow-connections";
import { addEntry } from "@/features/design/canvas/document-edits";
import { FlowNodeComponent, type TFlowNode } from "@/features/design/canvas/flow-node";
import { layeredLayout } from "@/features/design/canvas/layout";
import { placeInView, type TRect } from "@/features/design/canvas/placement";
import { StepPalette, PALETTE_MIME } from "@/features/design/canvas/step-palette";
import { NodeInspector } from "@/features/design/canvas/node-inspector";
import { ConnectForm } from "@/features/design/canvas/connect-form";
import { useCanvasSelection, type TPos } from "@/features/design/canvas/use-canvas-selection";
import type { TDocumentHistory } from "@/features/design/canvas/use-document-history";
import type { TStepStatus } from "@/features/design/flow-run/flow-run-panel";
import type { TFieldError } from "@/lib/errors/field-error";
import type { TColumns } from "@/lib/steps/columns";

export interface TFlowCanvasProps {
  doc: TFlowDoc;
  onChange: (doc: TFlowDoc, coalesce?: string) => void;
  catalogue: TCanvasStepType[];
  problems: TFieldError[];
  columns: Record<string, TColumns>;
  history: TDocumentHistory;
  stepStatus: Record<string, TStepStatus>;
  /** The step picked for the preview run (here or in its picker): selected on the canvas too. */
  selectedStepId: string | null;
  /** A step was selected on the canvas. */
  onSelectStep: (stepId: string) => void;
  /** A problem chosen in the list: select and show its node. */
  focusProblem: { pointer: string; at: number } | null;
  /** Node positions by node id, kept by the workbench so they survive a visit to the JSON view. */
  positions: Record<string, TPos>;
  setPositions: React.Dispatch<React.SetStateAction<Record<string, TPos>>>;
}

const NODE_TYPES = { flow: FlowNodeComponent };
const LAYOUT = { columnWidth: 236, rowHeight: 150, direction: "down" } as const;
/** A node's size before React Flow has measured it (w-52, a row of handles and the header). */
const NODE_SIZE = { width: 208, height: 86 };
/** The overview's size: small enough to leave the nodes in view. */
const MINIMAP_SIZE = { width: 150, height: 100 };
/** A button of the toolbar above the canvas. */
const TOOL = { type: "button", variant: "outline", size: "sm" } as const;

/** The canvas (see module doc). */
export function FlowCanvas(props: TFlowCanvasProps) {
  return (
    <ReactFlowProvider>
      <CanvasInner {...props} />
    </ReactFlowProvider>
  );
}

function CanvasInner({
  doc,
  onChange,
  catalogue,
  problems,
  columns,
  history,
  stepStatus,
  selectedStepId,
  onSelectStep,
  focusProblem,
  positions,
  setPositions,
}: TFlowCanvasProps) {
  const { resolvedTheme } = useTheme();
  const flow = useReactFlow();
  const wrapper = useRef<HTMLDivElement>(null);
  const graph = useMemo(() => documentToGraph(doc, catalogue), [doc, catalogue]);
  // A node whose id changed (a rename) or whose handles changed is measured again, so the
  // edges at its handles are drawn (React Flow draws an edge only between measured handles).
  const updateNodeInternals = useUpdateNodeInternals();
  useEffect(() => {
    const frame = requestAnimationFrame(() => updateNodeInternals(graph.nodes.map((n) => n.id)));
    return () => cancelAnimationFrame(frame);
  }, [graph, updateNodeInternals]);
  const { selected, setSelected, selectedEdges, setSelectedEdges, measured, onNodesChange, onEdgesChange } = useCanvasSelection(setPositions);
  const pending = useRef<Record<string, TPos>>({});
  const [announce, setAnnounce] = useState("");
  const [overview, setOverview] = useState(true);

  // Nodes without a position: where they were dropped, else the layered layout's place.
  const layout = useMemo(
    () =>
      layeredLayout(
        graph.nodes.map((n) => n.id),
        graph.edges,
        LAYOUT,
      ),
    [graph],
  );
  useEffect(() => {
    const missing = graph.nodes.filter((n) => !positions[n.id]);
    if (missing.length === 0) return;
    setPositions((p) => {
      const next = { ...p };
      for (const n of missing) next[n.id] = pending.current[n.id] ?? layout.get(n.id) ?? { x: 0, y: 0 };
      return next;
    });
  }, [graph, layout, positions]);

  const problemsByNode = useMemo(() => {
    const out = new Map<string, string[]>();
    for (const p of problems) {
      const id = nodeIdOfPointer(doc, p.field);
      if (id) out.set(id, [...(out.get(id) ?? []), `${p.field}: ${p.message}`]);
    }
    return out;
  }, [problems, doc]);

  const nodes: TFlowNode[] = useMemo(
    () =>
      graph.nodes.map((n) => {
        const nodeProblems = problemsByNode.get(n.id) ?? [];
        const status = n.data.kind === "step" ? stepStatus[n.data.name] : undefined;
        return {
          id: n.id,
          type: "flow",
          position: positions[n.id] ?? pending.current[n.id] ?? layout.get(n.id) ?? { x: 0, y: 0 },
          data: { ...n.data, problems: nodeProblems, status },
          selected: selected.includes(n.id),
          measured: measured[n.id],
          ariaLabel: `${n.data.title} ${n.data.name || "(no name)"}${nodeProblems.length ? `, ${nodeProblems.length} problem${nodeProblems.length === 1 ? "" : "s"}` : ""}${
            status ? (status.state === "ok" ? `, ${status.rows ?? "?"} rows` : ", failed") : ""
          }`,
        };
      }),
    [graph, positions, layout, problemsByNode, stepStatus, selected, measured],
  );
  const edges: Edge[] = useMemo(
    () =>
      graph.edges.map((e) => ({
        id: e.id,
        source: e.source,
        target: e.target,
        targetHandle: e.targetHandle,
        deletable: !e.param,
        selectable: !e.param,
        focusable: !e.param,
        selected: selectedEdges.includes(e.id),
        style: e.param ? { strokeDasharray: "4 4", opacity: 0.7 } : undefined,
        ariaLabel: e.param ? undefined : `Edge from ${e.source.replace(/^\w+:/, "")} into ${e.targetHandle} of ${e.target.replace(/^\w+:/, "")}`,
      })),
    [graph, selectedEdges],
  );

  const selectedNode: TCanvasNode | undefined = selected.length === 1 ? graph.nodes.find((n) => n.id === selected[0]) : undefined;
  const selectedStep = selectedNode?.data.kind === "step" ? selectedNode.data.name : null;
  useEffect(() => {
    if (selectedStep) onSelectStep(selectedStep);
  }, [selectedStep, onSelectStep]);
  // A step picked elsewhere (the preview run's picker) is selected here.
  useEffect(() => {
    if (!selectedStepId || selectedStepId === selectedStep) return;
    const n = graph.nodes.find((x) => x.data.kind === "step" && x.data.name === selectedStepId);
    if (n) setSelected([n.id]);
  }, [selectedStepId]);

  const isValidConnection: IsValidConnection = useCallback(
    (c) => Boolean(c.source && c.target && c.targetHandle && canConnect(doc, catalogue, graph.nodes, c.source, c.target, c.targetHandle)),
    [doc, catalogue, graph],
  );
  const onConnect = useCallback(
    (c: Connection) => {
      if (!c.targetHandle || !canConnect(doc, catalogue, graph.nodes, c.source, c.target, c.targetHandle)) return;
      onChange(connect(doc, catalogue, c.source, c.target, c.targetHandle));
    },
    [doc, catalogue, graph, onChange],
  );
  const remove = useCallback(
    (nodeIds: string[], edgeIds: string[]) => {
      if (nodeIds.length === 0 && edgeIds.length === 0) return;
      onChange(removeFromDocument(doc, catalogue, nodeIds, edgeIds));
      setSelected([]);
      setSelectedEdges([]);
      setAnnounce(
        `Deleted ${[...nodeIds.map((n) => n.replace(/^\w+:/, "")), ...(edgeIds.length ? [`${edgeIds.length} connection${edgeIds.length === 1 ? "" : "s"}`] : [])].join(", ")}.`,
      );
    },
    [doc, catalogue, onChange],
  );

  /** Adds a palette entry at `at` (flow coordinates) and selects it. */
  const add = useCallback(
    (entryId: string, at: TPos) => {
      const added = addEntry(doc, catalogue, entryId);
      if (!added) return;
      pending.current[added.nodeId] = at;
      // Where it was put, also over a place an earlier node of that id had (before "Start empty").
      setPositions((p) => ({ ...p, [added.nodeId]: at }));
      onChange(added.next);
      setSelected([added.nodeId]);
      setSelectedEdges([]);
      setAnnounce(`Added ${added.nodeId.replace(/^\w+:/, "")}.`);
    },
    [doc, catalogue, onChange],
  );
  /** Adds a palette entry (Enter on it) at a free place in view; when there is none, below the others, and the view follows. */
  const addInView = (entryId: string) => {
    const canvas = wrapper.current;
    if (!canvas) return add(entryId, { x: 0, y: 0 });
    const toFlow = (r: DOMRect): TRect => {
      const a = flow.screenToFlowPosition({ x: r.left, y: r.top });
      const b = flow.screenToFlowPosition({ x: r.right, y: r.bottom });
      return { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y };
    };
    const nodesAt: TRect[] = graph.nodes.flatMap((n) => {
      const p = positions[n.id];
      return p ? [{ ...p, ...(measured[n.id] ?? NODE_SIZE) }] : [];
    });
    const overlays = [...canvas.querySelectorAll(".react-flow__minimap, .react-flow__controls")].map((el) => toFlow(el.getBoundingClientRect()));
    const { at, inView } = placeInView(toFlow(canvas.getBoundingClientRect()), [...nodesAt, ...overlays], NODE_SIZE);
    add(entryId, at);
    if (!inView) void flow.setCenter(at.x + NODE_SIZE.width / 2, at.y + NODE_SIZE.height / 2, { zoom: flow.getZoom(), duration: 200 });
  };

  const autoLayout = () => {
    setPositions((p) => {
      const next = { ...p };
      for (const [id, pos] of layout) next[id] = pos;
      return next;
    });
    // at once, not animated: every node has just moved, there is nothing to follow
    requestAnimationFrame(() => requestAnimationFrame(() => void flow.fitView({ padding: 0.15 })));
  };

  // A problem chosen in the list: select its node and bring it into view.
  useEffect(() => {
    if (!focusProblem) return;
    const id = nodeIdOfPointer(doc, focusProblem.pointer);
    if (!id) return;
    setSelected([id]);
    const p = positions[id];
    if (p) void flow.setCenter(p.x + 100, p.y + 40, { zoom: Math.max(flow.getZoom(), 0.8), duration: 200 });
  }, [focusProblem]);

  return (
    <div className="grid min-w-0 gap-3 lg:grid-cols-[13rem_minmax(0,1fr)_19rem]">
      <StepPalette catalogue={catalogue} onAdd={addInView} />
      <div className="grid min-w-0 content-start gap-2">
        <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Canvas">
          <Button {...TOOL} onClick={history.undo} disabled={!history.canUndo} aria-keyshortcuts="Control+Z">
            <Undo2Icon aria-hidden="true" /> Undo
          </Button>
          <Button {...TOOL} onClick={history.redo} disabled={!history.canRedo} aria-keyshortcuts="Control+Shift+Z">
            <Redo2Icon aria-hidden="true" /> Redo
          </Button>
          <Button {...TOOL} onClick={autoLayout}>
            <LayoutGridIcon aria-hidden="true" /> Auto layout
          </Button>
          <Button {...TOOL} onClick={() => void flow.fitView({ padding: 0.15, duration: 200 })}>
            <MaximizeIcon aria-hidden="true" /> Fit view
          </Button>
          <Button
            {...TOOL}
            onClick={() => {
              onChange({ inputs: [], parameters: [], steps: [], results: [] });
              setSelected([]);
            }}
          >
            <EraserIcon aria-hidden="true" /> Start empty
          </Button>
          <Button {...TOOL} className="hidden sm:inline-flex" aria-pressed={overview} onClick={() => setOverview((v) => !v)}>
            <MapIcon aria-hidden="true" /> Overview
          </Button>
        </div>
        <div
          ref={wrapper}
          className="h-[26rem] min-w-0 overflow-hidden rounded-md border lg:h-[36rem]"
          data-testid="flow-canvas"
          onDragOver={(e) => {
            if (e.dataTransfer.types.includes(PALETTE_MIME)) {
              e.preventDefault();
              e.dataTransfer.dropEffect = "copy";
            }
          }}
          onDrop={(e) => {
            const id = e.dataTransfer.getData(PALETTE_MIME);
            if (!id) return;
            e.preventDefault();
            add(id, flow.screenToFlowPosition({ x: e.clientX - 100, y: e.clientY - 30 }));
          }}
        >
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={NODE_TYPES}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            isValidConnection={isValidConnection}
            onDelete={({ nodes: n, edges: e }) =>
              remove(
                n.map((x) => x.id),
                e.map((x) => x.id),
              )
            }
            deleteKeyCode={["Delete", "Backspace"]}
            fitView
            fitViewOptions={{ padding: 0.15 }}
            minZoom={0.05}
            maxZoom={2}
            proOptions={{ hideAttribution: true }}
            colorMode={resolvedTheme === "dark" ? "dark" : "light"}
            aria-label="Canvas of the flow: inputs, parameters, steps and results"
          >
            <Background />
            <Controls showInteractive={false} />
            {overview ? (
              <MiniMap
                pannable
                zoomable
                ariaLabel="Overview of the flow"
                style={MINIMAP_SIZE}
                nodeBorderRadius={8}
                className="!hidden overflow-hidden rounded-md border shadow-md sm:!block"
              />
            ) : null}
          </ReactFlow>
        </div>
        <ConnectForm doc={doc} nodes={graph.nodes} catalogue={catalogue} onConnect={(s, t, h) => onChange(connect(doc, catalogue, s, t, h))} />
        <p className="sr-only" role="status" aria-live="polite">
          {announce}
        </p>
      </div>
      <aside aria-label="Selected node" className="min-w-0 rounded-md border p-3 text-sm">
        {selectedNode ? (
          <NodeInspector
            key={`${selectedNode.data.kind}:${selectedNode.data.index}`}
            doc={doc}
            node={selectedNode}
            nodes={graph.nodes}
            catalogue={catalogue}
            problems={problems}
            columns={columns}
            onChange={(next, coalesce) => {
              onChange(next, coalesce);
              // A rename changes the node's id: keep it selected and where it was.
              const before = selectedNode;
              const after = documentToGraph(next, catalogue).nodes.find((n) => n.data.kind === before.data.kind && n.data.index === before.data.index);
              if (after && after.id !== before.id) {
                setPositions((p) => ({ ...p, [after.id]: p[before.id] ?? { x: 0, y: 0 } }));
                setSelected([after.id]);
              }
            }}
            onDelete={() => remove([selectedNode.id], [])}
          />
        ) : (
          <div className="grid gap-2 text-muted-foreground">
            <p>Select a node to edit it: click it, or Tab to it and press Enter.</p>
            <p>
              Connect an output (a node's bottom) to an input (the top of another) by dragging, or with the form below the canvas. Delete removes the selected
              node or connection.
            </p>
          </div>
        )}
      </aside>
    </div>
  );
}
