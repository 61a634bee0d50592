/**
 * The step catalogue, derived from the registry (lib/steps/registry.ts):
 * - `stepCatalogue()`: machine-readable (`TStepCatalogueEntry`), for the design tool's palette
 *   and the MCP tool descriptions;
 * - `stepReferenceMarkdown()`: the step tables of docs/flow-format.md (between the
 *   `step-reference` markers; `npm run docs:steps` writes them, a test keeps them in step).
 */
import { z } from "zod";
import type { TDataKind, TStepDefinition, TStepOutput } from "@/lib/steps/define-step";
import type { TParamAccept } from "@/lib/steps/options";
import type { TExpressionRole } from "@/lib/expressions/expression";
import { STEP_DEFINITIONS } from "@/lib/steps/registry";

export interface TStepCatalogueEntry {
  type: string;
  label: string;
  summary: string;
  category: "attribute" | "spatial";
  /** JSON Schema of the options (without `id`, `type`, `description`), input form: defaults optional. */
  options: Record<string, unknown>;
  /** Options that may be written `{"param": "<name>"}`, with the parameter types each accepts. */
  params: Record<string, readonly TParamAccept[]>;
  inputs: { key: string; accepts: readonly TDataKind[]; many: boolean }[];
  output: TStepOutput;
  /** Options holding a MapLibre expression, and whether it is a predicate or a value. */
  expressions: Record<string, TExpressionRole>;
  /**
   * Options naming a column of a source: option path (keys inside array items joined by dots,
   * e.g. `aggregations.field`; a field spec list's `from` included) → the source option key.
   */
  columns: Record<string, string>;
}

const definitions = STEP_DEFINITIONS as unknown as readonly TStepDefinition[];

/** Every registered step type, described as data (see module doc). */
export function stepCatalogue(): TStepCatalogueEntry[] {
  return definitions.map((d) => ({
    type: d.type,
    label: d.label,
    summary: d.summary,
    category: d.category,
    // Plain JSON (zod builds some objects without a prototype), so React may pass it to the browser.
    options: JSON.parse(JSON.stringify(z.toJSONSchema(d.optionsSchema, { io: "input", unrepresentable: "any" }))) as Record<string, unknown>,
    params: { ...d.paramable },
    inputs: d.inputs.map((i) => ({ key: i.key, accepts: [...i.accepts], many: i.many ?? false })),
    output: d.output,
    expressions: { ...d.expressions },
    columns: { ...d.columnOptions },
  }));
}

/** Markers around the generated step tables in docs/flow-format.md. */
export const STEP_REFERENCE_BEGIN = "<!-- step-reference:begin (generated from lib/steps by npm run docs:steps; do not edit by hand) -->";
export const STEP_REFERENCE_END = "<!-- step-reference:end -->";

const SECTIONS = [
  { category: "attribute", title: "Table and attribute steps" },
  { category: "spatial", title: "Spatial steps" },
] as const;

/** "`source` (any) → same", from a step's inputs and output. */
function sourcesCell(d: TStepDefinition): string {
  if (d.docs.sources) return d.docs.sources;
  const kind = (accepts: readonly TDataKind[]) => (accepts.includes("rows") ? (accepts.includes("features") ? "any" : "rows") : "features");
  const groups: { keys: string[]; kind: string }[] = [];
  for (const i of d.inputs) {
    const k = kind(i.accepts);
    const last = groups[groups.length - 1];
    if (last && last.kind === k) last.keys.push(i.key);
    else groups.push({ keys: [i.key], kind: k });
  }
  return `${groups.map((g) => `${g.keys.map((k) => `\`${k}\``).join(", ")} (${g.kind})`).join(", ")} → ${d.output}`;
}

const cell = (text: string) => text.replaceAll("|", "\\|");

/** The step tables of the step reference (Markdown), one per category. */
export function stepReferenceMarkdown(): string {
  return SECTIONS.map(({ category, title }) => {
    const rows = definitions
      .filter((d) => d.category === category)
      .map((d) => `| \`${d.type}\` | ${cell(sourcesCell(d))} | ${cell(d.docs.options)} | ${cell(d.docs.semantics)} |`.replace("|  |", "| |"));
    return [`### ${title}`, "", "| Step | Sources → | Options | Semantics |", "|---|---|---|---|", ...rows].join("\n");
  }).join("\n\n");
}
