"use client";
/** "Connect the output of X to input Y" below the canvas: the keyboard's way to draw an edge (only the connections `canConnect` allows). */
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
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
      <FormField id="connect-source" label="Connect the output of" className="min-w-0 flex-1">
        <NativeSelect value={source} onChange={(e) => setSource(e.target.value)}>
          <option value="">Choose…</option>
          <SelectOptions options={nodes.filter((n) => n.data.output && n.data.name).map((n) => ({ value: n.id, label: `${n.data.name} (${n.data.title})` }))} />
        </NativeSelect>
      </FormField>
      <FormField id="connect-target" label="to input" className="min-w-0 flex-1">
        <NativeSelect value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value="">Choose…</option>
          <SelectOptions options={targets.filter((t) => !source || fits(t.node, t.key))} />
        </NativeSelect>
      </FormField>
      <Button type="submit" variant="secondary" disabled={!ok}>
        Connect
      </Button>
    </form>
  );
}
