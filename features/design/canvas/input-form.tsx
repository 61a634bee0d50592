"use client";
/** The form of an input node: kind, optional, geometry and declared columns. Changing the kind drops what the new kind does not have. */
import { PlusIcon, Trash2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { TItem } from "@/features/design/canvas/flow-graph-model";
import { CheckField, SelectField, TextField } from "@/features/design/canvas/form-fields";
import type { TNodeForm } from "@/features/design/canvas/node-form";

const COLUMN_TYPES = ["number", "integer", "string", "boolean", "any"].map((t) => ({ value: t, label: t }));
export const DATA_KINDS = [
  { value: "layer", label: "Layer (features)" },
  { value: "table", label: "Table (rows)" },
];
const GEOMETRIES = [
  { value: "", label: "Any (not declared)" },
  { value: "point", label: "Points" },
  { value: "line", label: "Lines" },
  { value: "polygon", label: "Polygons" },
  { value: "any", label: "Any" },
];

/** An input's kind, optionality, geometry and declared columns. */
export function InputForm({ f }: { f: TNodeForm }) {
  const { item, fid, problemsAt } = f;
  const cols = Array.isArray(item.columns) ? (item.columns as TItem[]) : [];
  const setCols = (list: TItem[]) => f.setKey("columns", list.length ? list : undefined, `${f.node.id}:columns`);
  const setCol = (i: number, change: (c: TItem) => TItem) => setCols(cols.map((x, j) => (j === i ? change(x) : x)));
  return (
    <>
      <SelectField
        id={fid("kind")}
        label="Kind"
        value={String(item.kind ?? "")}
        options={[...DATA_KINDS, { value: "area", label: "Area (one polygon)" }]}
        onChange={(v) => {
          const next: TItem = { ...item, kind: v };
          if (v !== "layer") delete next.geometry;
          if (v === "area") delete next.columns;
          f.set(next);
        }}
        problems={problemsAt("/kind")}
      />
      <CheckField
        id={fid("optional")}
        label="Optional (the caller may leave it out)"
        checked={item.optional === true}
        onChange={(v) => f.setKey("optional", v ? true : undefined)}
      />
      {item.kind === "layer" ? (
        <SelectField
          id={fid("geometry")}
          label="Geometry"
          value={String(item.geometry ?? "")}
          options={GEOMETRIES}
          onChange={(v) => f.setKey("geometry", v || undefined)}
          problems={problemsAt("/geometry")}
        />
      ) : null}
      {item.kind !== "area" ? (
        <fieldset className="grid gap-2 rounded-md border p-2">
          <legend className="px-1 text-sm font-medium">Declared columns (optional)</legend>
          {cols.map((c, i) => (
            <div key={i} className="grid gap-1 rounded border border-dashed p-2" role="group" aria-label={`Column ${i + 1}`}>
              <TextField
                id={fid(`col-${i}-name`)}
                label={`Column ${i + 1} name`}
                value={String(c.name ?? "")}
                onChange={(v) => setCol(i, (x) => ({ ...x, name: v }))}
                problems={problemsAt(`/columns/${i}`)}
              />
              <div className="flex flex-wrap items-end gap-2">
                <div className="min-w-0 flex-1">
                  <SelectField
                    id={fid(`col-${i}-type`)}
                    label={`Column ${i + 1} type`}
                    value={String(c.type ?? "any")}
                    options={COLUMN_TYPES}
                    onChange={(v) => setCol(i, (x) => ({ ...x, type: v }))}
                  />
                </div>
                <CheckField
                  id={fid(`col-${i}-required`)}
                  label="Required"
                  checked={c.required === true}
                  onChange={(v) => setCol(i, (x) => ({ ...x, required: v || undefined }))}
                />
                <Button type="button" variant="ghost" size="icon" aria-label={`Remove column ${i + 1}`} onClick={() => setCols(cols.filter((_, j) => j !== i))}>
                  <Trash2Icon aria-hidden="true" />
                </Button>
              </div>
            </div>
          ))}
          <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => setCols([...cols, { name: "", type: "any" }])}>
            <PlusIcon aria-hidden="true" /> Add a column
          </Button>
        </fieldset>
      ) : null}
    </>
  );
}
