/**
 * Editor text: a JSON text's value (`parseJson`), and a stored flow version as editor text. Postgres `jsonb` keeps object keys in its own order
 * (shortest first), so the document is re-ordered the way people write it: `description`,
 * `inputs`, `parameters`, `steps`, `results`; in each item `name`/`id`/`key`, then `kind` or
 * `type`, then the rest as stored. Values are unchanged.
 */
const TOP = ["description", "inputs", "parameters", "steps", "results"];
const ITEM_FIRST = ["id", "name", "key", "type", "kind", "source", "from"];

function ordered(obj: Record<string, unknown>, first: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of first) if (k in obj) out[k] = obj[k];
  for (const [k, v] of Object.entries(obj)) if (!(k in out)) out[k] = v;
  return out;
}

/** What a JSON text stands for: undefined when empty, `NOT_JSON` when it does not parse (yet). */
export const NOT_JSON = Symbol("not JSON");
export function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** The editor text of a stored flow version (see module doc). */
export function flowDocumentText(definition: unknown): string {
  if (!definition || typeof definition !== "object" || Array.isArray(definition)) return JSON.stringify(definition ?? {}, null, 2);
  const top = ordered(definition as Record<string, unknown>, TOP);
  for (const section of ["inputs", "parameters", "steps", "results"]) {
    const items = top[section];
    if (Array.isArray(items))
      top[section] = items.map((x) => (x && typeof x === "object" && !Array.isArray(x) ? ordered(x as Record<string, unknown>, ITEM_FIRST) : x));
  }
  return JSON.stringify(top, null, 2);
}
