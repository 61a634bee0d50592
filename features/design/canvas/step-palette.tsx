"use client";
/**
 * The canvas's palette: inputs, a parameter, results and every step type of the catalogue,
 * searchable. An entry is added by dragging it onto the canvas (`PALETTE_MIME`) or by Enter
 * (it lands at a free place in view, placement.ts).
 */
import { useId, useMemo, useState } from "react";
import { Input } from "@/components/ui/input";
import type { TCanvasStepType } from "@/features/design/canvas/flow-graph-model";

/** Drag-and-drop type of a palette entry; its data is the entry's id. */
export const PALETTE_MIME = "application/x-flow-palette";

export interface TPaletteEntry {
  /** `step:<type>`, `input:<kind>`, `parameter:<type>`, `result:<kind>`. */
  id: string;
  group: string;
  label: string;
  summary: string;
}

/** Every entry of the palette, data entries first. */
export function paletteEntries(catalogue: readonly TCanvasStepType[]): TPaletteEntry[] {
  const data: TPaletteEntry[] = [
    { id: "input:layer", group: "Inputs and parameters", label: "Layer input", summary: "Features the caller sends or picks from the layers" },
    { id: "input:table", group: "Inputs and parameters", label: "Table input", summary: "Rows the caller sends (e.g. places with lon, lat)" },
    { id: "input:area", group: "Inputs and parameters", label: "Area input", summary: "One polygon the caller draws or sends" },
    { id: "parameter:number", group: "Inputs and parameters", label: "Parameter", summary: "A value the caller may set (number, text, choice ...)" },
    { id: "result:layer", group: "Results", label: "Layer result", summary: "Features returned to the caller (GeoJSON, GeoParquet)" },
    { id: "result:table", group: "Results", label: "Table result", summary: "Rows returned to the caller (CSV, Parquet)" },
  ];
  const group = (c: TCanvasStepType) => (c.category === "spatial" ? "Spatial steps" : "Table and attribute steps");
  const strip = (s: string) => s.replaceAll("`", "");
  return [...data, ...catalogue.map((c) => ({ id: `step:${c.type}`, group: group(c), label: c.label, summary: strip(c.summary) }))];
}

/** The palette (see module doc). */
export function StepPalette({ catalogue, onAdd }: { catalogue: readonly TCanvasStepType[]; onAdd: (entryId: string) => void }) {
  const [query, setQuery] = useState("");
  const searchId = useId();
  const entries = useMemo(() => paletteEntries(catalogue), [catalogue]);
  const q = query.trim().toLowerCase();
  const shown = q ? entries.filter((e) => `${e.label} ${e.id} ${e.summary}`.toLowerCase().includes(q)) : entries;
  const groups = [...new Set(shown.map((e) => e.group))];
  return (
    <nav aria-label="Palette" className="grid min-w-0 content-start gap-2" data-testid="palette">
      <label htmlFor={searchId} className="text-sm font-medium">
        Add to the flow
      </label>
      <Input
        id={searchId}
        type="search"
        placeholder="Search steps"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        aria-describedby={`${searchId}-hint`}
      />
      <p id={`${searchId}-hint`} className="text-xs text-muted-foreground">
        Drag onto the canvas, or focus an entry and press Enter.
      </p>
      <div className="grid max-h-56 gap-3 overflow-y-auto pr-1 lg:max-h-[30rem]" tabIndex={-1}>
        {groups.length === 0 ? <p className="text-sm text-muted-foreground">Nothing matches “{query}”.</p> : null}
        {groups.map((g) => (
          <section key={g} aria-label={g} className="grid gap-1">
            <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{g}</h3>
            <ul className="grid gap-1">
              {shown
                .filter((e) => e.group === g)
                .map((e) => (
                  <li key={e.id}>
                    <button
                      type="button"
                      draggable
                      onDragStart={(ev) => {
                        ev.dataTransfer.setData(PALETTE_MIME, e.id);
                        ev.dataTransfer.effectAllowed = "copy";
                      }}
                      onClick={() => onAdd(e.id)}
                      className="grid w-full cursor-grab gap-0.5 rounded-md border bg-card px-2 py-1.5 text-left text-card-foreground hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                      data-palette={e.id}
                    >
                      <span className="text-sm font-medium">{e.label}</span>
                      <span className="text-xs text-muted-foreground">{e.summary}</span>
                    </button>
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </div>
    </nav>
  );
}
