/**
 * What changes for callers between two flow versions (the one serving and the one about to
 * be published): inputs, parameters and results added, removed or changed. Only the public
 * face counts (what a request sends and a run returns); steps are internal and show as
 * `stepsChanged` only. Pure: takes two parsed flow documents (lib/flows/definition.ts).
 */
import type { TFlowVersion } from "@/lib/flows/definition";

export interface TDiffEntry {
  name: string;
  /** Human description of what differs, for `changed`; of the item for `added` / `removed`. */
  detail: string;
}

export interface TSectionDiff {
  added: TDiffEntry[];
  removed: TDiffEntry[];
  changed: TDiffEntry[];
}

export interface TReleaseDiff {
  inputs: TSectionDiff;
  parameters: TSectionDiff;
  results: TSectionDiff;
  stepsChanged: boolean;
  /** True when nothing a caller sees differs. */
  same: boolean;
}

function describe(item: Record<string, unknown>): string {
  return Object.entries(item)
    .filter(([k, v]) => !["name", "key", "description"].includes(k) && v !== undefined)
    .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
    .join(", ");
}

function section<T extends Record<string, unknown>>(before: T[], after: T[], keyOf: (x: T) => string): TSectionDiff {
  const b = new Map(before.map((x) => [keyOf(x), x]));
  const a = new Map(after.map((x) => [keyOf(x), x]));
  const out: TSectionDiff = { added: [], removed: [], changed: [] };
  for (const [k, x] of a) if (!b.has(k)) out.added.push({ name: k, detail: describe(x) });
  for (const [k, x] of b) if (!a.has(k)) out.removed.push({ name: k, detail: describe(x) });
  for (const [k, x] of a) {
    const old = b.get(k);
    if (!old) continue;
    const fields = [...new Set([...Object.keys(old), ...Object.keys(x)])].filter((f) => f !== "description" && f !== "from");
    const diffs = fields
      .filter((f) => JSON.stringify(old[f]) !== JSON.stringify(x[f]))
      .map((f) => `${f}: ${old[f] === undefined ? "none" : JSON.stringify(old[f])} → ${x[f] === undefined ? "none" : JSON.stringify(x[f])}`);
    if (diffs.length > 0) out.changed.push({ name: k, detail: diffs.join("; ") });
  }
  return out;
}

export function releaseDiff(before: TFlowVersion, after: TFlowVersion): TReleaseDiff {
  const inputs = section(before.inputs, after.inputs, (i) => i.name);
  const parameters = section(before.parameters as Record<string, unknown>[], after.parameters as Record<string, unknown>[], (p) => String(p.name));
  const results = section(before.results, after.results, (r) => r.key);
  const stepsChanged = JSON.stringify(before.steps) !== JSON.stringify(after.steps);
  const empty = (s: TSectionDiff) => s.added.length + s.removed.length + s.changed.length === 0;
  return { inputs, parameters, results, stepsChanged, same: empty(inputs) && empty(parameters) && empty(results) };
}
