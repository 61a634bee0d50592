/**
 * The step as a flow document writes it and as the engine runs it, derived from the
 * registry (lib/steps/registry.ts): `ZStep` (a discriminated union on `type`), the step
 * types, the sources a step names, and `resolveStep`, which substitutes run parameters and
 * re-checks the options.
 */
import { z } from "zod";
import { jsonPointer } from "@/lib/errors/field-error";
import { flattenZodIssues } from "@/lib/errors/zod-issues";
import type { TStepDefinition, TStepInput } from "@/lib/steps/define-step";
import { isParamRef } from "@/lib/steps/options";
import { STEP_DEFINITIONS } from "@/lib/steps/registry";

type TDefinitions = (typeof STEP_DEFINITIONS)[number];
export type TStepType = TDefinitions["type"];
/** A step as written in a flow document (`{"param"}` allowed where declared). */
export type TStep = z.output<TDefinitions["flowSchema"]>;
/** A step with every `{"param"}` replaced by its value (what the engine executes). */
export type TResolvedStep = z.output<TDefinitions["schema"]>;

export const STEP_TYPES = STEP_DEFINITIONS.map((d) => d.type) as TStepType[];

const BY_TYPE = new Map<string, TStepDefinition>(STEP_DEFINITIONS.map((d) => [d.type, d as unknown as TStepDefinition]));

/** The definition of a step type, or undefined for an unknown type. */
export function stepDefinition(type: string): TStepDefinition | undefined {
  return BY_TYPE.get(type);
}

/** One step of a flow document: a discriminated union over every registered step type. */
export const ZStep = z.discriminatedUnion(
  "type",
  STEP_DEFINITIONS.map((d) => d.flowSchema) as unknown as [TDefinitions["flowSchema"], ...TDefinitions["flowSchema"][]],
);

/** Names of the sources a step reads, with the option (and index) naming each. */
export function stepSources(step: { type: string } & Record<string, unknown>): { name: string; path: (string | number)[]; spec: TStepInput }[] {
  const out: { name: string; path: (string | number)[]; spec: TStepInput }[] = [];
  for (const spec of stepDefinition(step.type)?.inputs ?? []) {
    const v = step[spec.key];
    if (spec.many && Array.isArray(v)) v.forEach((n, i) => out.push({ name: n as string, path: [spec.key, i], spec }));
    else if (typeof v === "string") out.push({ name: v, path: [spec.key], spec });
  }
  return out;
}

/**
 * Substitutes parameter values into a step's param-able options and parses the result with
 * the step's own schema (ranges, enums). Throws an Error naming the option on a bad value.
 */
export function resolveStep(step: TStep, params: Record<string, unknown>): TResolvedStep {
  const raw: Record<string, unknown> = { ...step };
  for (const [k, v] of Object.entries(raw)) {
    if (!isParamRef(v)) continue;
    const value = params[v.param];
    if (value === undefined || value === null) delete raw[k];
    else raw[k] = value;
  }
  const r = stepDefinition(step.type)!.schema.safeParse(raw);
  if (!r.success) {
    const msg = flattenZodIssues(r.error.issues, raw)
      .map((e) => `${jsonPointer(e.path) || "/"}: ${e.message}`)
      .join("; ");
    throw new Error(`Invalid options after substituting parameters: ${msg}`);
  }
  return r.data as TResolvedStep;
}
