/** What the maps compute from their GeoJSON data apart from MapLibre: a feature's popup (as DOM for `setDOMContent`) and the bounding box to fit. */
import type { Feature, FeatureCollection } from "geojson";
import { formatValue } from "@/features/design/attribute-columns";

/** An element with its classes and, given, its text. */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The popup of one feature: its number and a two-column table of its properties. */
export function popupContent(feature: Feature, index: number): HTMLElement {
  const box = el("div", "max-h-56 max-w-64 overflow-auto text-xs");
  box.append(el("p", "mb-1 font-medium", `Feature ${index + 1}`));
  const entries = Object.entries(feature.properties ?? {});
  if (entries.length === 0) box.append(el("p", "", "No properties."));
  else {
    const table = el("table", "border-collapse");
    for (const [k, v] of entries) {
      const th = el("th", "pr-2 text-left align-top font-medium whitespace-nowrap", k);
      th.scope = "row";
      const tr = el("tr", "");
      tr.append(th, el("td", "align-top break-all", formatValue(v)));
      table.append(tr);
    }
    box.append(table);
  }
  return box;
}

/** West, south, east, north of every coordinate in `fc`, or null when it has none. */
export function bboxOfCollection(fc: FeatureCollection): [number, number, number, number] | null {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === "number") {
      const [x, y] = c as number[];
      w = Math.min(w, x!);
      e = Math.max(e, x!);
      s = Math.min(s, y!);
      n = Math.max(n, y!);
    } else if (Array.isArray(c)) c.forEach(visit);
  };
  for (const f of fc.features) if (f.geometry && "coordinates" in f.geometry) visit(f.geometry.coordinates);
  return Number.isFinite(w) ? [w, s, e, n] : null;
}
