"use client";
/**
 * A picture of a flow version: inputs → steps → results as a left-to-right graph
 * (@xyflow/react). Columns are the longest path from an input; each step shows its label
 * from the step catalogue. Clicking (or Enter on) a node shows its options beside the graph.
 * Colours follow the app's theme (colorMode, and the --xy-* variables in app/globals.css).
 */
import { useMemo, useState } from "react";
import { useTheme } from "next-themes";
import { ReactFlow, Background, Controls, type Edge, type Node, Position } from "@xyflow/react";
import "@xyflow/react/dist/style.css";

export interface TGraphStepType {
  type: string;
  label: string;
  summary: string;
  inputs: { key: string }[];
}

interface TDoc {
  inputs?: { name: string; kind: string; optional?: boolean; description?: string }[];
  parameters?: { name: string }[];
  steps?: ({ id: string; type: string } & Record<string, unknown>)[];
  results?: { key: string; kind: string; from: string; description?: string }[];
}

type TSelected = { title: string; subtitle: string; details: Record<string, unknown> };

export function FlowGraph({ definition, catalogue }: { definition: unknown; catalogue: TGraphStepType[] }) {
  const [selected, setSelected] = useState<TSelected | null>(null);
  const { nodes, edges, info } = useMemo(() => build(definition as TDoc, catalogue), [definition, catalogue]);
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

function build(doc: TDoc, catalogue: TGraphStepType[]) {
  const byType = new Map(catalogue.map((c) => [c.type, c]));
  const steps = doc.steps ?? [];
  const sourcesOf = (s: (typeof steps)[number]): string[] => {
    const keys = byType.get(s.type)?.inputs.map((i) => i.key) ?? ["source"];
    return keys.flatMap((k) => {
      const v = s[k];
      return typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
    });
  };
  const depth = new Map<string, number>();
  for (const i of doc.inputs ?? []) depth.set(`in:${i.name}`, 0);
  const stepIds = new Set(steps.map((s) => s.id));
  const nodeOf = (name: string) => (stepIds.has(name) ? `step:${name}` : `in:${name}`);
  const depthOf = (id: string, seen = new Set<string>()): number => {
    if (depth.has(id)) return depth.get(id)!;
    if (seen.has(id)) return 1;
    seen.add(id);
    const s = steps.find((x) => `step:${x.id}` === id);
    const d = s ? 1 + Math.max(0, ...sourcesOf(s).map((src) => depthOf(nodeOf(src), seen))) : 0;
    depth.set(id, d);
    return d;
  };
  for (const s of steps) depthOf(`step:${s.id}`);
  const maxDepth = Math.max(0, ...depth.values());
  const columns = new Map<number, number>();
  const place = (d: number) => {
    const row = columns.get(d) ?? 0;
    columns.set(d, row + 1);
    return { x: d * 230, y: row * 100 };
  };
  const nodes: Node[] = [];
  const edges: Edge[] = [];
  const info = new Map<string, TSelected>();
  const common = { sourcePosition: Position.Right, targetPosition: Position.Left };
  for (const i of doc.inputs ?? []) {
    const id = `in:${i.name}`;
    nodes.push({ id, position: place(0), data: { label: `${i.name} (${i.kind} input)` }, type: "input", ...common, ariaLabel: `Input ${i.name}` });
    info.set(id, { title: `Input ${i.name}`, subtitle: i.description ?? `A ${i.kind} the caller sends`, details: i });
  }
  for (const s of steps) {
    const id = `step:${s.id}`;
    const meta = byType.get(s.type);
    nodes.push({ id, position: place(depth.get(id) ?? 1), data: { label: `${meta?.label ?? s.type}: ${s.id}` }, ...common, ariaLabel: `Step ${s.id}` });
    const { id: _id, type: _type, ...options } = s;
    info.set(id, { title: `${meta?.label ?? s.type} (${s.id})`, subtitle: meta?.summary ?? s.type, details: options });
    for (const src of sourcesOf(s)) edges.push({ id: `${nodeOf(src)}->${id}`, source: nodeOf(src), target: id });
  }
  for (const r of doc.results ?? []) {
    const id = `out:${r.key}`;
    nodes.push({ id, position: place(maxDepth + 1), data: { label: `${r.key} (${r.kind} result)` }, type: "output", ...common, ariaLabel: `Result ${r.key}` });
    info.set(id, { title: `Result ${r.key}`, subtitle: r.description ?? `A ${r.kind} returned to the caller`, details: r });
    edges.push({ id: `${nodeOf(r.from)}->${id}`, source: nodeOf(r.from), target: id });
  }
  return { nodes, edges, info };
}
