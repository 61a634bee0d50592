/** What the maps compute from their GeoJSON data apart from MapLibre: a feature's popup (as DOM for `setDOMContent`) and the bounding box to fit. */
import type { Feature, FeatureCollection } from "geojson";
import { formatValue } from "@/features/design/attribute-columns";

/** The popup of one feature: its number and a two-column table of its properties. */
export function popupContent(feature: Feature, index: number): HTMLElement {
  const box = document.createElement("div");
  box.className = "max-h-56 max-w-64 overflow-auto text-xs";
  const title = document.createElement("p");
  title.className = "mb-1 font-medium";
  title.textContent = `Feature ${index + 1}`;
  box.append(title);
  const entries = Object.entries(feature.properties ?? {});
  if (entries.length === 0) {
    const none = document.createElement("p");
    none.textContent = "No properties.";
    box.append(none);
    return box;
  }
  const table = document.createElement("table");
  table.className = "border-collapse";
  for (const [k, v] of entries) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.className = "pr-2 text-left align-top font-medium whitespace-nowrap";
    th.textContent = k;
    const td = document.createElement("td");
    td.className = "align-top break-all";
    td.textContent = formatValue(v);
    tr.append(th, td);
    table.append(tr);
  }
  box.append(table);
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
