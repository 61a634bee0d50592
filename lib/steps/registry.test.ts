/**
 * Holds the promise of lib/steps/registry.ts and lib/steps/runners.ts: every folder of
 * lib/steps is one registered step type with a definition and a runner, and everything derived
 * from the registry knows every step: the flow schema (`ZStep`), flow validation, the catalogue
 * (`stepCatalogue()`) and the step reference of docs/flow-format.md. Runs every step on its
 * fixtures with deep-frozen inputs and checks that no step mutates its input, that each yields
 * the kind it declares, and that the output equals the fixture's expected file
 * (`lib/steps/<type>/fixtures/<name>.expected.geojson` or `.json`; `REGEN=1` rewrites them).
 * Checks that the definitions, and everything the design tool's client components import,
 * reach no runner code (Turf, the spatial indexes, the expression compiler).
 */
import fs from "node:fs";
import path from "node:path";
import { format, resolveConfig } from "prettier";
import { describe, expect, it } from "vitest";
import { validateFlowVersion } from "@/lib/flows/definition";
import type { TStepDefinition } from "@/lib/steps/define-step";
import type { TDataset, TFeatureSet, TTable } from "@/lib/steps/dataset";
import { STEP_REFERENCE_BEGIN, STEP_REFERENCE_END, stepCatalogue, stepReferenceMarkdown } from "@/lib/steps/catalogue";
import { STEP_DEFINITIONS } from "@/lib/steps/registry";
import { STEP_RUNNERS } from "@/lib/steps/runners";
import { STEP_TYPES, ZStep } from "@/lib/steps/step-schema";
import { tableRows } from "@/lib/steps/dataset";
import { expectedFile, fixturesOf, folderOf, runStep } from "@/lib/steps/test-helpers";

const DIR = import.meta.dirname;
const ROOT = path.resolve(DIR, "../..");
const definitions = STEP_DEFINITIONS as unknown as readonly TStepDefinition[];
const REGEN = process.env.REGEN === "1";

/** A step's output as its expected file holds it (plain JSON: what a map or a reader sees). */
function asExpected(out: unknown, kind: "layer" | "table"): unknown {
  const doc =
    kind === "layer"
      ? { type: "FeatureCollection", features: (out as TFeatureSet).features }
      : { columns: (out as TTable).columns, rows: tableRows(out as TTable) };
  return JSON.parse(JSON.stringify(doc));
}

/**
 * Files reached from `entries` by imports the browser bundle keeps (type-only imports are erased;
 * a "use server" module is only a reference to the server), and the packages they import.
 */
function clientImports(entries: string[]): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const resolve = (from: string, spec: string) => {
    const base = spec.startsWith("@/") ? path.join(ROOT, spec.slice(2)) : path.resolve(path.dirname(from), spec);
    return ["", ".ts", ".tsx", "/index.ts"].map((e) => base + e).find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
  };
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const src = fs.readFileSync(file, "utf8");
    if (/^["']use server["']/m.test(src.slice(0, 500))) continue;
    for (const m of src.matchAll(/^(?:import|export)\s+(type\s+)?(?:([^;]*?)\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm)) {
      const spec = m[3] ?? m[4]!;
      const names = m[2]?.match(/^\{([^}]*)\}$/)?.[1];
      if (m[1] || (names && names.split(",").every((n) => !n.trim() || n.trim().startsWith("type ")))) continue;
      if (spec.startsWith("@/") || spec.startsWith(".")) {
        const target = resolve(file, spec);
        if (target) queue.push(target);
      } else {
        const name = spec
          .split("/")
          .slice(0, spec.startsWith("@") ? 2 : 1)
          .join("/");
        if (!packages.has(name)) packages.set(name, path.relative(ROOT, file));
      }
    }
  }
  return { files: new Set([...files].map((f) => path.relative(ROOT, f))), packages };
}

/** Every client component ("use client") of the app. */
function clientComponents(): string[] {
  return ["app", "features", "components"].flatMap((d) =>
    (fs.readdirSync(path.join(ROOT, d), { recursive: true }) as string[])
      .filter((f) => /\.tsx?$/.test(f) && !f.includes(".test."))
      .map((f) => path.join(ROOT, d, f))
      .filter((f) => /^["']use client["']/m.test(fs.readFileSync(f, "utf8").slice(0, 500))),
  );
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

describe("the step registry", () => {
  it("has one folder per registered step type, each with definition.ts, step.ts, its tests and fixtures.ts, and nothing unregistered", () => {
    const folders = fs
      .readdirSync(DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(folders).toEqual(STEP_TYPES.map(folderOf).sort());
    for (const f of folders)
      for (const file of ["definition.ts", "step.ts", `${f}.test.ts`, "fixtures.ts"]) expect(fs.existsSync(path.join(DIR, f, file)), `${f}/${file}`).toBe(true);
    expect(new Set(STEP_TYPES).size).toBe(STEP_TYPES.length);
  });

  it("has a runner for every definition, in the same order, carrying that definition", () => {
    expect(STEP_RUNNERS.map((r) => r.type)).toEqual(STEP_TYPES);
    STEP_RUNNERS.forEach((r, i) => {
      expect(r.schema, r.type).toBe(STEP_DEFINITIONS[i]!.schema);
      expect(typeof r.run, r.type).toBe("function");
    });
  });

  it("keeps runner code out of the definitions and of what the design tool's client components import", () => {
    const RUNNER_CODE =
      /^lib\/(steps\/[a-z-]+\/step\.ts|steps\/runners\.ts|steps\/(items|extent|distance|geometry|row-maker)\.ts|expressions\/|geo\/spatial-index\.ts|geo\/antimeridian\.ts|flows\/validate-flow-version\.ts)/;
    const RUNNER_PACKAGES = ["@maplibre/maplibre-gl-style-spec", "@turf/turf", "kdbush", "geokdbush"];
    const definitionsOnly = clientImports([path.join(DIR, "registry.ts"), path.join(DIR, "catalogue.ts"), path.join(DIR, "step-schema.ts")]);
    expect([...definitionsOnly.files].filter((f) => RUNNER_CODE.test(f))).toEqual([]);
    expect([...definitionsOnly.packages.keys()].sort()).toEqual(["zod"]);
    const client = clientImports(clientComponents());
    expect(client.files.size).toBeGreaterThan(50);
    expect([...client.files]).toContain("lib/steps/registry.ts");
    expect([...client.files].filter((f) => RUNNER_CODE.test(f))).toEqual([]);
    expect([...client.packages.keys()].filter((p) => RUNNER_PACKAGES.includes(p))).toEqual([]);
    // Flatbush only for the run request's area check (lib/geo/polygon-problems.ts: the same answers as the server's).
    expect(client.packages.get("flatbush")).toBe("lib/geo/polygon-problems.ts");
  });

  it("runs every step on its fixtures without mutating the (deep-frozen) inputs, yielding the declared kind and the expected output", async () => {
    for (const def of definitions) {
      const fixtures = await fixturesOf(def.type);
      expect(fixtures.length, def.type).toBeGreaterThan(0);
      const files = new Set<string>();
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
        const file = expectedFile(def.type, fx);
        expect(files.has(file), `${label}: two fixtures of one name`).toBe(false);
        files.add(file);
        const actual = asExpected(out, fx.kind);
        if (REGEN) {
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, await format(JSON.stringify(actual), { ...(await resolveConfig(file)), filepath: file }));
        } else {
          expect(fs.existsSync(file), `${label}: ${path.relative(ROOT, file)} is missing (REGEN=1 writes it)`).toBe(true);
          expect(actual, `${label}: differs from ${path.relative(ROOT, file)}`).toEqual(JSON.parse(fs.readFileSync(file, "utf8")));
        }
      }
      // No expected file without its fixture.
      const folder = path.join(DIR, folderOf(def.type), "fixtures");
      for (const f of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
        const file = path.join(folder, f);
        if (REGEN && !files.has(file)) fs.rmSync(file);
        else expect(files.has(file), `${path.relative(ROOT, file)} belongs to no fixture`).toBe(true);
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
