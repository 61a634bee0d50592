/**
 * Validation of a whole flow version document (`validateFlowVersion`): every problem, each
 * with an RFC 6901 pointer into the document and a code (listed below and in
 * docs/flow-format.md, "Validation"). Step options, sources, output kinds and expressions are
 * read from the step registry (lib/steps), so a new step type is validated without edits here.
 */
import { z } from "zod";
import { checkExpression } from "@/lib/expressions/expression";
import { jsonPointer, type TFieldError } from "@/lib/errors/field-error";
import { flattenZodIssues } from "@/lib/errors/zod-issues";
import {
  paramDecls,
  parameterValueSchema,
  ZFlowVersion,
  ZInput,
  ZParameter,
  ZResult,
  topologicalOrder,
  type TFlowVersion,
  type TInput,
  type TParameter,
} from "@/lib/engine/flow-document";
import type { TDataKind } from "@/lib/steps/define-step";
import { isParamRef } from "@/lib/steps/options";
import { STEP_TYPES, stepDefinition, stepSources, type TStep } from "@/lib/steps/step-schema";

/** Each fault of a flow document is a field error (`field` = JSON Pointer into the document), as for a run request. */
export type TFlowValidation = { ok: true; flow: TFlowVersion } | { ok: false; errors: TFieldError[] };

const ZTop = z.strictObject({
  description: z.string().optional(),
  inputs: z.array(z.unknown()),
  parameters: z.array(z.unknown()).default([]),
  steps: z.array(z.unknown()),
  results: z.array(z.unknown()).min(1),
});

/**
 * Validates a flow version document. Reports every problem, each with an RFC 6901 pointer
 * into the document and a code:
 * - schema faults: `required`, `unknown_field` (`unknown_option` inside a step), `invalid_type`,
 *   `too_small`, `invalid_value`, `invalid_format`, `missing_option`, ...;
 * - `unknown_step_type` (at `/steps/i/type`);
 * - `duplicate_name` (input names + step ids share one namespace), `duplicate_parameter`,
 *   `duplicate_result`;
 * - `unknown_reference` (source/`from` naming no input or step), `unknown_parameter`,
 *   `parameter_type_mismatch` (e.g. a string parameter for a numeric option);
 * - `invalid_expression` (pointer into the expression array), `invalid_default`,
 *   `invalid_range`;
 * - `cycle` (at each step on a cycle of the step graph);
 * - `kind_mismatch` (a table fed from features, features from rows, a layer result from rows, ...);
 * - `unused_input` (an input that no step or result reads);
 * - declared columns: `invalid_value` (columns on an area input, a range on a
 *   string/boolean column), `duplicate_column`, `invalid_range`;
 * - declared geometry: `invalid_value` (`geometry` on a table or area input; an unknown
 *   geometry name is a schema fault).
 * On success returns the parsed document with defaults filled in.
 */
export function validateFlowVersion(doc: unknown): TFlowValidation {
  const errors: TFieldError[] = [];
  const push = (path: readonly PropertyKey[], code: string, message: string) => errors.push({ field: jsonPointer(path), code, message });
  const pushZod = (issues: readonly z.core.$ZodIssue[], root: unknown, prefix: PropertyKey[], inStep = false) => {
    for (const e of flattenZodIssues(issues, root, prefix)) {
      const option = `option "${String(e.path[e.path.length - 1])}"`;
      if (inStep && e.code === "unknown_field") push(e.path, "unknown_option", `Unknown ${option}`);
      else if (inStep && e.code === "required") push(e.path, "missing_option", `Missing ${option}`);
      else push(e.path, e.code, e.message);
    }
  };

  const top = ZTop.safeParse(doc);
  if (!top.success) pushZod(top.error.issues, doc, []);
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return { ok: false, errors };
  // The sections that are lists, even when the top level is faulty.
  const arr = (v: unknown) => (Array.isArray(v) ? v : []);
  const d = doc as Record<string, unknown>;
  const sections = { inputs: arr(d.inputs), parameters: arr(d.parameters), steps: arr(d.steps), results: arr(d.results) };

  // Items, one by one, so that one bad item does not hide the faults of the others.
  const parseEach = <T>(section: "inputs" | "parameters" | "results", schema: z.ZodType<T>) =>
    sections[section].flatMap((raw, i) => {
      const r = schema.safeParse(raw);
      if (r.success) return [{ item: r.data, i }];
      pushZod(r.error.issues, raw, [section, i]);
      return [];
    });
  const inputs = parseEach("inputs", ZInput);
  for (const { item, i } of inputs) {
    checkColumns(item, i, push);
    if (item.geometry !== undefined && item.kind !== "layer")
      push(
        ["inputs", i, "geometry"],
        "invalid_value",
        `Only layer inputs declare a geometry; a${item.kind === "area" ? "n area is a polygon" : " table has none"}`,
      );
  }
  const params = parseEach("parameters", ZParameter);
  // Faulty steps too (`valid` false) with their id, so that references to them are not reported as unknown as well.
  /** `sources`: the names an invalid step reads (from its source options that are names), so its inputs do not read as unused. */
  const steps: { item: TStep; i: number; valid: boolean; sources?: string[] }[] = [];
  /** Names read by invalid steps without an id (no entry in `steps`). */
  const readByInvalid = new Set<string>();
  sections.steps.forEach((raw, i) => {
    const t = (raw as { type?: unknown } | null)?.type;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return push(["steps", i], "invalid_type", "A step must be an object");
    const def = typeof t === "string" ? stepDefinition(t) : undefined;
    const r = def?.flowSchema.safeParse(raw);
    if (r?.success) return steps.push({ item: r.data as TStep, i, valid: true });
    if (typeof t !== "string") push(["steps", i, "type"], t === undefined ? "required" : "invalid_type", "A step needs a type (string)");
    else if (!r) push(["steps", i, "type"], "unknown_step_type", `Unknown step type "${t}"; known: ${STEP_TYPES.join(", ")}`);
    else pushZod(r.error.issues, raw, ["steps", i], true);
    const id = (raw as { id?: unknown }).id;
    const sources = def ? stepSources(raw as TStep).flatMap((s) => (typeof s.name === "string" ? [s.name] : [])) : [];
    if (typeof id === "string") steps.push({ item: { id, type: t } as TStep, i, valid: false, sources });
    else sources.forEach((n) => readByInvalid.add(n));
  });
  const results = parseEach("results", ZResult);

  // Parameters: unique names, defaults of the right type and in range, sane ranges.
  const paramByName = new Map<string, TParameter>();
  for (const { item: p, i } of params) {
    if (paramByName.has(p.name)) push(["parameters", i, "name"], "duplicate_parameter", `Parameter "${p.name}" is declared twice`);
    else paramByName.set(p.name, p);
    if (p.default !== undefined) {
      const r = parameterValueSchema(p).safeParse(p.default);
      if (!r.success) push(["parameters", i, "default"], "invalid_default", `Default does not fit the parameter: ${r.error.issues[0]?.message}`);
    }
    if ((p.type === "number" || p.type === "integer") && p.minimum !== undefined && p.maximum !== undefined && p.minimum > p.maximum)
      push(["parameters", i, "maximum"], "invalid_range", "maximum is below minimum");
    if (p.type === "enum" && new Set(p.values).size !== p.values.length) push(["parameters", i, "values"], "invalid_value", "Enum values must be unique");
  }
  const decls = paramDecls([...paramByName.values()]);

  // Names: inputs and steps share one namespace.
  const kindOf = new Map<string, TDataKind>();
  const stepById = new Map<string, (typeof steps)[number]>();
  const inputIndex = new Map<string, number>();
  for (const { item, i } of inputs) {
    if (kindOf.has(item.name)) push(["inputs", i, "name"], "duplicate_name", `Name "${item.name}" is used twice`);
    else {
      kindOf.set(item.name, item.kind === "layer" ? "features" : item.kind === "table" ? "rows" : "area");
      inputIndex.set(item.name, i);
    }
  }
  for (const s of steps) {
    if (kindOf.has(s.item.id) || stepById.has(s.item.id))
      push(["steps", s.i, "id"], "duplicate_name", `Name "${s.item.id}" is already used by an input or step`);
    else stepById.set(s.item.id, s);
  }
  const known = (n: string) => inputIndex.has(n) || stepById.has(n);
  const used = new Set<string>(readByInvalid);

  // Per valid step: references, parameters, expressions.
  for (const { item: step, i, valid, sources } of steps) {
    if (!valid) {
      sources?.forEach((n) => used.add(n));
      continue;
    }
    for (const src of stepSources(step)) {
      used.add(src.name);
      if (!known(src.name)) push(["steps", i, ...src.path], "unknown_reference", `"${src.name}" is neither an input nor a step`);
    }
    const paramable = stepDefinition(step.type)!.paramable;
    for (const [k, v] of Object.entries(step)) {
      if (!isParamRef(v)) continue;
      const p = paramByName.get(v.param);
      if (!p) push(["steps", i, k, "param"], "unknown_parameter", `Unknown parameter "${v.param}"`);
      else if (!paramable[k]?.includes(p.type))
        push(
          ["steps", i, k, "param"],
          "parameter_type_mismatch",
          `Option "${k}" cannot take the ${p.type} parameter "${p.name}" (accepts ${paramable[k]?.join(", ")})`,
        );
    }
    for (const [k, role] of Object.entries(stepDefinition(step.type)!.expressions ?? {})) {
      for (const e of checkExpression((step as Record<string, unknown>)[k], decls, role)) {
        const unknownVar = /Unknown variable/.test(e.message);
        push(["steps", i, k, ...e.path], unknownVar ? "unknown_parameter" : "invalid_expression", e.message);
      }
    }
  }

  // Results.
  const resultKeys = new Set<string>();
  for (const { item: r, i } of results) {
    used.add(r.from);
    if (resultKeys.has(r.key)) push(["results", i, "key"], "duplicate_result", `Result key "${r.key}" is used twice`);
    resultKeys.add(r.key);
    if (!known(r.from)) push(["results", i, "from"], "unknown_reference", `"${r.from}" is neither an input nor a step`);
  }

  // Cycles, and kinds in topological order.
  const inCycle = new Set<string>();
  const order = topologicalOrder(
    [...stepById.values()].map((s) => s.item),
    (ids) => {
      for (const c of ids.slice(0, -1)) {
        if (inCycle.has(c)) continue;
        inCycle.add(c);
        push(["steps", stepById.get(c)!.i], "cycle", `Step "${c}" is on a cycle: ${ids.join(" → ")}`);
      }
    },
  );

  const describeKind = (k: TDataKind) => (k === "rows" ? "a table" : k === "area" ? "an area" : "features");
  for (const { id } of order) {
    const { item: step, i, valid } = stepById.get(id)!;
    if (!valid || inCycle.has(id)) continue;
    const def = stepDefinition(step.type)!;
    let ok = true;
    const srcKinds: TDataKind[] = [];
    for (const src of stepSources(step)) {
      const k = kindOf.get(src.name);
      if (k === undefined) {
        ok = false;
        continue;
      }
      srcKinds.push(k);
      if (!src.spec.accepts.includes(k)) {
        ok = false;
        push(
          ["steps", i, ...src.path],
          "kind_mismatch",
          `Option "${src.spec.key}" of a ${step.type} step needs ${src.spec.accepts.includes("rows") ? "a table" : "features"}, but "${src.name}" yields ${describeKind(k)}`,
        );
      }
    }
    if (!ok) continue;
    // "same": the sources' kind (an area yields features); a list of sources (`many`, union) must be of one kind.
    const same = srcKinds.map((k) => (k === "area" ? "features" : k));
    if (def.output === "same" && def.inputs.some((s) => s.many)) {
      stepSources(step).forEach((src, j) => {
        if (same[j] !== same[0])
          push(["steps", i, ...src.path], "kind_mismatch", `All sources of a ${step.type} must be of one kind; "${src.name}" yields ${describeKind(same[j])}`);
      });
    }
    kindOf.set(id, def.output === "same" ? same[0] : def.output);
  }
  for (const { item: r, i } of results) {
    const k = kindOf.get(r.from);
    if (k === undefined) continue;
    if (r.kind === "table" && k !== "rows")
      push(["results", i, "from"], "kind_mismatch", `A table result needs rows, but "${r.from}" yields ${describeKind(k)} (add a to_table or aggregate step)`);
    if (r.kind === "layer" && k === "rows") push(["results", i, "from"], "kind_mismatch", `A layer result needs features, but "${r.from}" yields a table`);
  }
  for (const { item, i } of inputs) {
    if (!used.has(item.name) && inputIndex.get(item.name) === i) push(["inputs", i], "unused_input", `Input "${item.name}" is not used by any step or result`);
  }

  if (errors.length > 0) return { ok: false, errors };
  const full = ZFlowVersion.safeParse(doc);
  if (!full.success) {
    pushZod(full.error.issues, doc, []);
    return { ok: false, errors };
  }
  return { ok: true, flow: full.data };
}

/** Checks the declared `columns` of one input (see `validateFlowVersion` for the codes). */
function checkColumns(input: TInput, i: number, push: (path: readonly PropertyKey[], code: string, message: string) => void): void {
  if (!input.columns) return;
  if (input.kind === "area") return push(["inputs", i, "columns"], "invalid_value", `An area has no columns; only table and layer inputs declare them`);
  const seen = new Set<string>();
  input.columns.forEach((c, j) => {
    if (seen.has(c.name)) push(["inputs", i, "columns", j, "name"], "duplicate_column", `Column "${c.name}" is declared twice`);
    seen.add(c.name);
    const numeric = c.type === "number" || c.type === "integer";
    if (!numeric && (c.minimum !== undefined || c.maximum !== undefined))
      push(["inputs", i, "columns", j, c.minimum !== undefined ? "minimum" : "maximum"], "invalid_value", `A ${c.type} column has no range`);
    if (c.minimum !== undefined && c.maximum !== undefined && c.minimum > c.maximum)
      push(["inputs", i, "columns", j, "maximum"], "invalid_range", "maximum is below minimum");
  });
}
