/**
 * The columns of every result of a flow, derived through the step graph before any run
 * (lib/steps/columns.ts): the start is each input — a table or layer input's declared
 * `columns` (typed, more may follow), an input without declarations: unknown (`open`, nothing
 * named), an area: no columns — and each step's definition maps its sources' columns to its own
 * (`columns` in lib/steps/<type>/definition.ts; absent = its first source's).
 *
 * `datasetColumns(doc)` → `{ <input name or step id>: TColumns }` of a document that may be
 * faulty (the design tool's canvas); `resultColumns(flow)` → `{ <result key>: TColumns }` of a
 * valid flow. Pure.
 */
import { topologicalOrder, ZInput, type TFlowVersion, type TInput } from "@/lib/engine/flow-document";
import { NO_COLUMNS, UNKNOWN_COLUMNS, type TColumns } from "@/lib/steps/columns";
import type { TStepDefinition } from "@/lib/steps/define-step";
import { stepDefinition, stepSources, ZStep, type TStep } from "@/lib/steps/step-schema";

/** Columns an input starts with. */
export function inputColumns(input: TInput): TColumns {
  if (input.kind === "area") return NO_COLUMNS;
  if (input.columns?.length) return { fields: input.columns.map((c) => ({ name: c.name, type: c.type })), open: true };
  return UNKNOWN_COLUMNS;
}

/**
 * Columns of every input and step of a document that may still be faulty (the design tool
 * offers them while a flow is being built): each input and step is parsed alone, a faulty one
 * is left out, and a step reads unknown columns from a source that is unknown (or that closes
 * a cycle).
 * → `{ <input name or step id>: TColumns }`.
 */
export function datasetColumns(doc: unknown): Record<string, TColumns> {
  const d = (doc && typeof doc === "object" ? doc : {}) as { inputs?: unknown; steps?: unknown };
  const known = new Map<string, TColumns>();
  for (const raw of Array.isArray(d.inputs) ? d.inputs : []) {
    const input = ZInput.safeParse(raw);
    if (input.success) known.set(input.data.name, inputColumns(input.data));
  }
  const steps = new Map<string, TStep>();
  for (const raw of Array.isArray(d.steps) ? d.steps : []) {
    const step = ZStep.safeParse(raw);
    if (step.success && !known.has(step.data.id)) steps.set(step.data.id, step.data);
  }
  for (const step of topologicalOrder([...steps.values()], () => {})) {
    const sources = stepSources(step).map((s) => known.get(s.name) ?? UNKNOWN_COLUMNS);
    const derive = (stepDefinition(step.type) as TStepDefinition | undefined)?.columns;
    let out: TColumns;
    try {
      out = derive ? derive(step as Parameters<NonNullable<TStepDefinition["columns"]>>[0], sources) : (sources[0] ?? UNKNOWN_COLUMNS);
    } catch {
      out = UNKNOWN_COLUMNS;
    }
    known.set(step.id, out);
  }
  return Object.fromEntries(known);
}

/** Columns of each result of `flow`, by result key. */
export function resultColumns(flow: TFlowVersion): Record<string, TColumns> {
  const known = datasetColumns(flow);
  return Object.fromEntries(flow.results.map((r) => [r.key, known[r.from] ?? UNKNOWN_COLUMNS]));
}
