/**
 * The columns of every result of a flow, derived through the step graph before any run
 * (lib/steps/columns.ts): the start is each input — a table or layer input's declared
 * `columns` (typed, more may follow), an input without declarations: unknown (`open`, nothing
 * named), an area: no columns — and each step's definition maps its sources' columns to its own
 * (`columns` in lib/steps/<type>/step.ts; absent = its first source's).
 *
 * `resultColumns(flow)` → `{ <result key>: TColumns }` (the flow must be valid). Pure; cached
 * per flow object.
 */
import { topologicalOrder, type TFlowVersion, type TInput } from "@/lib/engine/flow-document";
import { NO_COLUMNS, UNKNOWN_COLUMNS, type TColumns } from "@/lib/steps/columns";
import type { TStepDefinition } from "@/lib/steps/define-step";
import { stepDefinition, stepSources } from "@/lib/steps/step-schema";

/** Columns an input starts with. */
export function inputColumns(input: TInput): TColumns {
  if (input.kind === "area") return NO_COLUMNS;
  if (input.columns?.length) return { fields: input.columns.map((c) => ({ name: c.name, type: c.type })), open: true };
  return UNKNOWN_COLUMNS;
}

const cache = new WeakMap<TFlowVersion, Record<string, TColumns>>();

/** Columns of each result of `flow`, by result key. */
export function resultColumns(flow: TFlowVersion): Record<string, TColumns> {
  const hit = cache.get(flow);
  if (hit) return hit;
  const known = new Map<string, TColumns>();
  for (const input of flow.inputs) known.set(input.name, inputColumns(input));
  for (const step of topologicalOrder(flow)) {
    const def = stepDefinition(step.type) as TStepDefinition | undefined;
    const sources = stepSources(step).map((s) => known.get(s.name) ?? UNKNOWN_COLUMNS);
    const derive = def?.columns;
    known.set(step.id, derive ? derive(step as Parameters<NonNullable<TStepDefinition["columns"]>>[0], sources) : (sources[0] ?? UNKNOWN_COLUMNS));
  }
  const out: Record<string, TColumns> = {};
  for (const r of flow.results) out[r.key] = known.get(r.from) ?? UNKNOWN_COLUMNS;
  cache.set(flow, out);
  return out;
}
