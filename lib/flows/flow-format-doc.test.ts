/**
 * Keeps docs/flow-format.md true: its complete example validates (and is the demo flow it
 * claims to be), every step type, every parameter-capable option and every validation code
 * the code knows is described there, and the documented codes all occur in real validation.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NEARBY_CITIES } from "@/lib/demo/flows";
import { flowVersionJsonSchema, validateFlowVersion } from "./definition";
import { STEP_TYPES, stepDefinition } from "@/lib/steps/step-schema";

const doc = fs.readFileSync(path.resolve(import.meta.dirname, "../../docs/flow-format.md"), "utf8");
const section = (title: string) => doc.slice(doc.indexOf(`## ${title}`), doc.indexOf("\n## ", doc.indexOf(`## ${title}`) + 3));

describe("docs/flow-format.md", () => {
  it("has a complete example that validates and equals the Nearby cities demo flow", () => {
    const json = /```json\n([\s\S]*?)```/.exec(section("A complete example"))![1]!;
    const example = JSON.parse(json);
    expect(validateFlowVersion(example)).toMatchObject({ ok: true });
    expect(example).toEqual(JSON.parse(JSON.stringify(NEARBY_CITIES)));
  });

  it("describes every step type and marks exactly its parameter-capable options", () => {
    const ref = section("Step reference");
    for (const type of STEP_TYPES) {
      const row = ref.split("\n").find((l) => l.startsWith(`| \`${type}\` |`));
      expect(row, type).toBeDefined();
      for (const option of Object.keys(stepDefinition(type)!.paramable)) expect(row, `${type}.${option}`).toMatch(new RegExp(`\`${option}\`[^|;]*\\*param\\*`));
      expect((row!.match(/\*param\*/g) ?? []).length, type).toBe(Object.keys(stepDefinition(type)!.paramable).length);
    }
  });

  it("lists the validation codes that validation really produces", () => {
    const table = section("Validation");
    const documented = [...table.matchAll(/^\| `([a-z_]+)`(?:, `([a-z_]+)`)? \|/gm)].flatMap((m) => [m[1]!, m[2]].filter(Boolean) as string[]);
    const bad = validateFlowVersion({
      inputs: [
        { name: "a", kind: "layer" },
        { name: "a", kind: "table" },
        { name: "unused", kind: "table" },
        { name: "t", kind: "table", extra: 1 },
        { kind: "table" },
      ],
      parameters: [
        { name: "p", type: "string", max_length: 3 },
        { name: "d", type: "integer", minimum: 0, default: -1 },
        { name: "p", type: "integer", minimum: 5, maximum: 1 },
        { name: "e", type: "enum", values: ["x", "x"] },
      ],
      steps: [
        { id: "s1", type: "nope" },
        { id: "s2", type: "filter", source: "ghost", where: ["get"] },
        { id: "s3", type: "limit", source: "s4", n: { param: "p" } },
        { id: "s4", type: "limit", source: "s3", n: { param: "missing" } },
        { id: "s5", type: "points_from_rows", source: "a", lon: "x" },
        { id: "s6", type: "aggregate", source: "t", aggregations: [{ op: "sum", as: "s" }], bogus: 1 },
        { id: "9bad", type: "rank", source: "t" },
        { id: "s7", type: "limit", source: "t", n: -1 },
        { id: "s8", type: "limit", source: "t", n: "x" },
      ],
      results: [
        { key: "r", kind: "table", from: "a" },
        { key: "r", kind: "layer", from: "t" },
      ],
    });
    expect(bad.ok).toBe(false);
    const seen = new Set(bad.ok ? [] : bad.errors.map((e) => e.code));
    for (const code of seen) expect(documented, `code ${code} is not documented`).toContain(code);
    for (const code of [
      "required",
      "missing_option",
      "unknown_field",
      "unknown_option",
      "invalid_type",
      "too_small",
      "invalid_value",
      "invalid_format",
      "unknown_step_type",
      "duplicate_name",
      "duplicate_parameter",
      "duplicate_result",
      "unknown_reference",
      "unknown_parameter",
      "parameter_type_mismatch",
      "invalid_expression",
      "invalid_default",
      "invalid_range",
      "cycle",
      "kind_mismatch",
      "unused_input",
    ])
      expect(seen, `validation did not produce ${code}`).toContain(code);
  });

  it("names the JSON Schema export, which describes the document", () => {
    expect(section("JSON Schema")).toContain("flowVersionJsonSchema()");
    const schema = flowVersionJsonSchema() as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties).sort()).toEqual(["description", "inputs", "parameters", "results", "steps"]);
  });
});
