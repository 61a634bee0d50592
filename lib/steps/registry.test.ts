/**
 * Holds the promise of lib/steps/registry.ts: every folder of lib/steps is one registered
 * step type, and everything derived from the registry knows every step: the flow schema
 * (`ZStep`), flow validation, the catalogue (`stepCatalogue()`) and the step reference of
 * docs/flow-format.md. Runs every step on its fixtures with deep-frozen inputs and checks
 * that no step mutates its input and that each yields the kind it declares.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateFlowVersion } from "@/lib/flows/definition";
import type { TStepDefinition } from "@/lib/steps/define-step";
import type { TDataset } from "@/lib/steps/dataset";
import { STEP_REFERENCE_BEGIN, STEP_REFERENCE_END, stepCatalogue, stepReferenceMarkdown } from "@/lib/steps/catalogue";
import { STEP_DEFINITIONS } from "@/lib/steps/registry";
import { STEP_TYPES, ZStep } from "@/lib/steps/step-schema";
import { runStep, type TStepFixture } from "@/lib/steps/test-helpers";

const DIR = import.meta.dirname;
const definitions = STEP_DEFINITIONS as unknown as readonly TStepDefinition[];
const folderOf = (type: string) => type.replaceAll("_", "-");
const fixturesOf = async (type: string) => ((await import(path.join(DIR, folderOf(type), "fixtures.ts"))) as { fixtures: TStepFixture[] }).fixtures;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

describe("the step registry", () => {
  it("has one folder per registered step type, each with step.ts, its tests and fixtures.ts, and nothing unregistered", () => {
    const folders = fs
      .readdirSync(DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(folders).toEqual(STEP_TYPES.map(folderOf).sort());
    for (const f of folders)
      for (const file of ["step.ts", `${f}.test.ts`, "fixtures.ts"]) expect(fs.existsSync(path.join(DIR, f, file)), `${f}/${file}`).toBe(true);
    expect(new Set(STEP_TYPES).size).toBe(STEP_TYPES.length);
  });

  it("runs every step on its fixtures without mutating the (deep-frozen) inputs, yielding the declared kind", async () => {
    for (const def of definitions) {
      const fixtures = await fixturesOf(def.type);
      expect(fixtures.length, def.type).toBeGreaterThan(0);
      for (const fx of fixtures) {
        const label = `${def.type}: ${fx.name}`;
        expect(fx.step.type, label).toBe(def.type);
        const inputs = deepFreeze(structuredClone(fx.inputs));
        const before = structuredClone(inputs);
        const out = await runStep(fx.step, inputs, fx.kind, fx.opts);
        expect(inputs, `${label} mutated its input`).toEqual(before);
        const first = inputs[def.inputs[0]!.key === "sources" ? (fx.step.sources as string[])[0]! : (fx.step[def.inputs[0]!.key] as string)];
        const declared = def.output === "same" ? (first as TDataset | null)?.kind : def.output;
        expect(out.kind, label).toBe(declared === "area" ? "features" : declared);
      }
    }
  });

  it("derives the flow schema and validation from the registry: every fixture step parses and validates", async () => {
    for (const def of definitions) {
      for (const fx of await fixturesOf(def.type)) {
        expect(ZStep.safeParse({ id: "s", ...fx.step }).success, `${def.type}: ${fx.name}`).toBe(true);
        const doc = {
          inputs: Object.entries(fx.inputs).map(([name, d]) => ({
            name,
            kind: d === null || d.kind === "area" ? "area" : d.kind === "features" ? "layer" : "table",
          })),
          parameters: fx.opts?.parameters ?? [],
          steps: [{ id: "s", ...fx.step }],
          results: [{ key: "out", kind: fx.kind, from: "s" }],
        };
        expect(validateFlowVersion(doc), `${def.type}: ${fx.name}`).toMatchObject({ ok: true });
      }
    }
    expect(validateFlowVersion({ inputs: [], steps: [{ id: "s", type: "no_such_step" }], results: [{ key: "r", kind: "layer", from: "s" }] })).toMatchObject({
      ok: false,
      errors: expect.arrayContaining([expect.objectContaining({ code: "unknown_step_type", message: expect.stringContaining(STEP_TYPES.join(", ")) })]),
    });
  });

  it("describes every step in the machine-readable catalogue: options as JSON Schema, inputs, output", () => {
    const catalogue = stepCatalogue();
    expect(catalogue.map((c) => c.type)).toEqual(STEP_TYPES);
    for (const entry of catalogue) {
      const def = definitions.find((d) => d.type === entry.type)!;
      expect(entry.label.length, entry.type).toBeGreaterThan(0);
      expect(entry.summary.length, entry.type).toBeGreaterThan(0);
      const schema = entry.options as { type: string; properties: Record<string, unknown>; additionalProperties: boolean };
      expect(schema.type).toBe("object");
      expect(schema.additionalProperties).toBe(false);
      expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(def.options).sort());
      for (const input of entry.inputs) expect(schema.properties, `${entry.type}.${input.key}`).toHaveProperty(input.key);
      for (const p of Object.keys(entry.params)) expect(JSON.stringify(schema.properties[p]), `${entry.type}.${p}`).toContain('"param"');
      expect(["features", "rows", "same"]).toContain(entry.output);
      for (const e of Object.keys(entry.expressions)) expect(schema.properties, `${entry.type}.${e}`).toHaveProperty(e);
      // A column option names a property of the options (its first key) and one of the step's sources.
      for (const [option, source] of Object.entries(entry.columns)) {
        expect(schema.properties, `${entry.type}.${option}`).toHaveProperty(option.split(".")[0]!);
        expect(
          entry.inputs.map((i) => i.key),
          `${entry.type}.${option}`,
        ).toContain(source);
      }
    }
    // The options that name columns of a source (offered as choices in the design tool).
    expect(catalogue.find((c) => c.type === "points_from_rows")!.columns).toEqual({ lon: "source", lat: "source" });
    expect(catalogue.find((c) => c.type === "within_distance")!.columns).toEqual({ "aggregations.field": "target" });
    expect(JSON.parse(JSON.stringify(catalogue))).toEqual(catalogue);
  });

  it("keeps the step reference of docs/flow-format.md generated from the registry (npm run docs:steps)", () => {
    const doc = fs.readFileSync(path.resolve(DIR, "../../docs/flow-format.md"), "utf8");
    const section = doc.slice(doc.indexOf(STEP_REFERENCE_BEGIN) + STEP_REFERENCE_BEGIN.length, doc.indexOf(STEP_REFERENCE_END)).trim();
    expect(section, "run npm run docs:steps").toBe(stepReferenceMarkdown());
    for (const type of STEP_TYPES) expect(section).toContain(`| \`${type}\` |`);
  });
});
