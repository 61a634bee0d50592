"use client";
/** "Connect the output of X to input Y" below the canvas: the keyboard's way to draw an edge (only the connections `canConnect` allows). */
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { canConnect } from "@/features/design/canvas/flow-connections";
import type { TCanvasNode, TCanvasStepType, TFlowDoc } from "@/features/design/canvas/flow-graph-model";

/** The form that connects an output to an input. */
export function ConnectForm(props: {
  doc: TFlowDoc;
  nodes: TCanvasNode[];
  catalogue: readonly TCanvasStepType[];
  onConnect: (source: string, target: string, handle: string) => void;
}) {
  const { doc, nodes, catalogue } = props;
  const [source, setSource] = useState("");
  const [target, setTarget] = useState("");
  const fits = (node: string, key: string) => canConnect(doc, catalogue, nodes, source, node, key);
  const targets = nodes.flatMap((n) =>
    n.data.handles.map((h) => ({ value: `${n.id}|${h.key}`, label: `${h.key} of ${n.data.name || "(no name)"}`, node: n.id, key: h.key })),
  );
  const chosen = targets.find((t) => t.value === target);
  const ok = Boolean(source && chosen && fits(chosen.node, chosen.key));
  return (
    <form
      className="flex flex-wrap items-end gap-2 rounded-md border p-2"
      aria-label="Connect"
      onSubmit={(e) => {
        e.preventDefault();
        if (ok && chosen) {
          props.onConnect(source, chosen.node, chosen.key);
          setTarget("");
        }
      }}
    >
      <div className="grid min-w-0 flex-1 gap-1">
        <Label htmlFor="connect-source">Connect the output of</Label>
        <NativeSelect id="connect-source" value={source} onChange={(e) => setSource(e.target.value)}>
          <option value="">Choose…</option>
          <SelectOptions options={nodes.filter((n) => n.data.output && n.data.name).map((n) => ({ value: n.id, label: `${n.data.name} (${n.data.title})` }))} />
        </NativeSelect>
      </div>
      <div className="grid min-w-0 flex-1 gap-1">
        <Label htmlFor="connect-target">to input</Label>
        <NativeSelect id="connect-target" value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value="">Choose…</option>
          <SelectOptions options={targets.filter((t) => !source || fits(t.node, t.key))} />
        </NativeSelect>
      </div>
      <Button type="submit" variant="secondary" disabled={!ok}>
        Connect
      </Button>
    </form>
  );
}
