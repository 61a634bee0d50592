"use client";
/**
 * The canvas's controlled state React Flow reports changes of: selected nodes and edges, and
 * measured sizes (handed back with the nodes, as a controlled flow must). Moves go to `setPositions`.
 */
import { useCallback, useState } from "react";
import type { EdgeChange, NodeChange } from "@xyflow/react";
import type { TFlowNode } from "@/features/design/canvas/flow-node";

export type TPos = { x: number; y: number };

/** The ids in `ids` after some were (de)selected. */
function applySelect(ids: string[], changes: { id: string; selected: boolean }[]): string[] {
  let next = ids.slice();
  for (const c of changes) next = c.selected ? [...new Set([...next, c.id])] : next.filter((id) => id !== c.id);
  return next;
}

/** Selection and measured sizes of the canvas, and React Flow's change handlers for them. */
export function useCanvasSelection(setPositions: React.Dispatch<React.SetStateAction<Record<string, TPos>>>) {
  const [selected, setSelected] = useState<string[]>([]);
  const [selectedEdges, setSelectedEdges] = useState<string[]>([]);
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({});
  const onNodesChange = useCallback((changes: NodeChange<TFlowNode>[]) => {
    const moved: Record<string, TPos> = {};
    const sized: Record<string, { width: number; height: number }> = {};
    const sel: { id: string; selected: boolean }[] = [];
    for (const c of changes) {
      if (c.type === "position" && c.position) moved[c.id] = c.position;
      if (c.type === "dimensions" && c.dimensions) sized[c.id] = c.dimensions;
      if (c.type === "select") sel.push(c);
    }
    if (Object.keys(moved).length) setPositions((p) => ({ ...p, ...moved }));
    if (Object.keys(sized).length) setMeasured((m) => ({ ...m, ...sized }));
    if (sel.length) setSelected((s) => applySelect(s, sel));
  }, []);
  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    const sel = changes.flatMap((c) => (c.type === "select" ? [c] : []));
    if (sel.length) setSelectedEdges((s) => applySelect(s, sel));
  }, []);
  return { selected, setSelected, selectedEdges, setSelectedEdges, measured, onNodesChange, onEdgesChange };
}
