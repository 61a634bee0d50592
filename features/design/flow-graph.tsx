"use client";
/**
 * A read-only picture of a flow version (@xyflow/react): inputs → steps → results, built as the
 * canvas builds its graph (without parameters) and laid out left to right. A node's options
 * show beside the graph when it is clicked (or Enter).
 */
import { useMemo, useState } from "react";
import { useTheme } from "next-themes";
import { ReactFlow, Background, Controls, type Node, Position } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { documentToGraph, str, type TCanvasStepType, type TFlowDoc } from "@/features/design/canvas/flow-graph-model";
import { layeredLayout } from "@/features/design/canvas/layout";

type TSelected = { title: string; subtitle: string; details: Record<string, unknown> };

export function FlowGraph({ definition, catalogue }: { definition: unknown; catalogue: TCanvasStepType[] }) {
  const [selected, setSelected] = useState<TSelected | null>(null);
  const { nodes, edges, info } = useMemo(() => build(definition as TFlowDoc, catalogue), [definition, catalogue]);
  // The app's theme (next-themes), not the system's: a user may pick dark on a light system.
  const { resolvedTheme } = useTheme();
  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_18rem]">
      <div className="h-[26rem] rounded-md border" data-testid="flow-graph">
        <ReactFlow
          nodes={nodes}
          edges={edges}
          fitView
          nodesDraggable={false}
          nodesConnectable={false}
          onNodeClick={(_, n) => setSelected(info.get(n.id) ?? null)}
          proOptions={{ hideAttribution: true }}
          colorMode={resolvedTheme === "dark" ? "dark" : "light"}
          aria-label="Graph of the flow: inputs, steps and results"
        >
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
      <aside className="rounded-md border p-3 text-sm" aria-live="polite" aria-label="Selected node">
        {selected ? (
          <div className="grid gap-2">
            <h3 className="font-semibold">{selected.title}</h3>
            <p className="text-muted-foreground">{selected.subtitle}</p>
            <pre className="max-h-80 overflow-auto rounded bg-muted p-2 font-mono text-xs" data-testid="node-options" tabIndex={0} aria-label="Options">
              {JSON.stringify(selected.details, null, 2)}
            </pre>
          </div>
        ) : (
          <p className="text-muted-foreground">Select a node to see its options.</p>
        )}
      </aside>
    </div>
  );
}

function build(doc: TFlowDoc, catalogue: TCanvasStepType[]) {
  const graph = documentToGraph(doc, catalogue);
  const shown = graph.nodes.filter((n) => n.data.kind !== "parameter");
  // The nodes have one handle each side: an edge names no handle.
  const edges = graph.edges.filter((e) => !e.param).map(({ id, source, target }) => ({ id, source, target }));
  const at = layeredLayout(
    shown.map((n) => n.id),
    edges,
    { columnWidth: 230, rowHeight: 100 },
  );
  const byType = new Map(catalogue.map((c) => [c.type, c]));
  const info = new Map<string, TSelected>();
  const nodes: Node[] = shown.map(({ id, data: { kind, name, item, title } }) => {
    const description = typeof item.description === "string" ? item.description : undefined;
    const what = str(item.kind);
    if (kind === "step") {
      const { id: _id, type, ...options } = item;
      info.set(id, { title: `${title} (${name})`, subtitle: byType.get(str(type))?.summary ?? str(type), details: options });
    } else if (kind === "input") info.set(id, { title: `Input ${name}`, subtitle: description ?? `A ${what} the caller sends`, details: item });
    else info.set(id, { title: `Result ${name}`, subtitle: description ?? `A ${what} returned to the caller`, details: item });
    return {
      id,
      position: at.get(id) ?? { x: 0, y: 0 },
      data: { label: kind === "step" ? `${title}: ${name}` : `${name} (${what} ${kind})` },
      type: kind === "input" ? "input" : kind === "result" ? "output" : undefined,
      sourcePosition: Position.Right,
      targetPosition: Position.Left,
      ariaLabel: `${kind === "step" ? "Step" : kind === "input" ? "Input" : "Result"} ${name}`,
    };
  });
  return { nodes, edges, info };
}
