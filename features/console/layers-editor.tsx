"use client";
import { useState } from "react";
import { useToastAction } from "@/components/action-form";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect, SelectOptions } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { setLayerReadableAction } from "@/features/console/actions";
import type { TConsoleLayer } from "@/lib/serving/environment-layers";

/** The value of a layer's option: its workspace and id (layer ids are unique within a workspace only). */
const layerKey = (l: Pick<TConsoleLayer, "workspaceId" | "id">) => `${l.workspaceId}/${l.id}`;

/**
 * The layers the environment may read (callers name them by `layer_id`, resolved in the called
 * API's workspace): remove one, add another of the organization's workspaces.
 */
export function LayersEditor({ organization, environment, layers }: { organization: string; environment: string; layers: TConsoleLayer[] }) {
  const { run, pending } = useToastAction();
  const readable = layers.filter((l) => l.readable);
  const others = layers.filter((l) => !l.readable);
  const [choice, setChoice] = useState("");
  const change = async (layer: TConsoleLayer | undefined, value: boolean) => {
    if (!layer) return;
    const action = setLayerReadableAction({ organization, environment, workspaceId: layer.workspaceId, layerId: layer.id, readable: value });
    if (await run(action, value ? "Layer added." : "Layer removed.")) setChoice("");
  };
  return (
    <div className="grid gap-4">
      {readable.length === 0 ? (
        <p className="text-sm text-muted-foreground">This environment may read no layers: callers must send their own data.</p>
      ) : (
        <Table>
          <TableHeaderRow columns={["Layer id", "Name", "Kind", ["Items", "text-right"], "Workspace", ["Actions", "sr-only"]]} />
          <TableBody>
            {readable.map((l) => (
              <TableRow key={layerKey(l)}>
                <TableCell className="font-mono text-xs">{l.id}</TableCell>
                <TableCell>{l.name}</TableCell>
                <TableCell>{l.kind}</TableCell>
                <TableCell className="text-right tabular-nums">{l.itemCount.toLocaleString("en")}</TableCell>
                <TableCell>{l.workspaceName}</TableCell>
                <TableCell className="text-right">
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={pending}
                    onClick={() => change(l, false)}
                    aria-label={`Remove layer ${l.name} (${l.workspaceName})`}
                  >
                    Remove
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {others.length > 0 ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (choice)
              void change(
                others.find((l) => layerKey(l) === choice),
                true,
              );
          }}
        >
          <FormField id="add-layer" label="Add a readable layer" className="gap-1.5">
            <NativeSelect value={choice} onChange={(e) => setChoice(e.target.value)} className="w-72">
              <option value="">Choose a layer…</option>
              <SelectOptions options={others.map((l) => ({ value: layerKey(l), label: `${l.name} (${l.id}, ${l.workspaceName})` }))} />
            </NativeSelect>
          </FormField>
          <Button type="submit" disabled={!choice || pending}>
            Add layer
          </Button>
        </form>
      ) : null}
    </div>
  );
}
