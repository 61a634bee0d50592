/** The columns of an attribute table and the text of a property value (any JSON value, RFC 7946), shared by the tables and the map's popups. */
import type { Feature } from "geojson";

export type TColumnType = "number" | "text" | "yes/no" | "object" | "mixed" | "empty";

/** Property names of `features` in order of first appearance, each with the type of its non-null values. */
export function attributeColumns(features: Pick<Feature, "properties">[]): { name: string; type: TColumnType }[] {
  const types = new Map<string, Set<string>>();
  for (const f of features)
    for (const [k, v] of Object.entries(f.properties ?? {})) {
      const set = types.get(k) ?? types.set(k, new Set()).get(k)!;
      if (v === null || v === undefined) continue;
      set.add(typeof v === "number" ? "number" : typeof v === "string" ? "text" : typeof v === "boolean" ? "yes/no" : "object");
    }
  return [...types].map(([name, set]) => ({ name, type: set.size === 0 ? "empty" : set.size > 1 ? "mixed" : ([...set][0] as TColumnType) }));
}

/** A property value as table or popup text. */
export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}
