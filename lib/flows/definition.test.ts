import { describe, expect, it } from "vitest";
import { flowVersionJsonSchema, validateFlowVersion } from "./definition";
import { jsonPointer } from "@/lib/errors/field-error";
import { resolveStep, stepDefinition } from "@/lib/steps/step-schema";

const base = () => ({
  inputs: [
    { name: "cities", kind: "layer" },
    { name: "area", kind: "area" },
  ],
  parameters: [{ name: "min_pop", type: "integer", minimum: 0, default: 0 }],
  steps: [
    { id: "big", type: "filter", source: "cities", where: [">=", ["get", "population"], ["var", "min_pop"]] },
    { id: "inside", type: "spatial_filter", source: "big", by: "area" },
    { id: "t", type: "to_table", source: "inside" },
  ],
  results: [
    { key: "cities", kind: "layer", from: "inside" },
    { key: "rows", kind: "table", from: "t" },
  ],
});

function errs(doc: unknown) {
  const r = validateFlowVersion(doc);
  if (r.ok) return [];
  return r.errors.map((e) => `${e.field} ${e.code}`);
}

describe("validateFlowVersion", () => {
  it("accepts a valid document and fills defaults", () => {
    const r = validateFlowVersion(base());
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.flow.inputs[0].optional).toBe(false);
      expect(r.flow.steps[1]).toMatchObject({ predicate: "intersects" });
    }
  });

  it("names every problem by JSON Pointer", () => {
    const doc = base() as Record<string, any>;
    doc.inputs.push({ name: "unused", kind: "table" }, { name: "cities", kind: "layer" });
    doc.parameters.push({ name: "label", type: "string", default: 3 });
    doc.steps.push(
      { id: "x", type: "explode", source: "cities" },
      { id: "lim", type: "limit", source: "nope", n: { param: "label" }, extra: 1 },
      { id: "lim2", type: "limit", source: "t", n: { param: "missing" } },
      { id: "agg", type: "aggregate", source: "big" },
      { id: "bad_expr", type: "filter", source: "big", where: ["==", ["var", "nope"], ["foo"]] },
      { id: "big", type: "rank", source: "cities" },
      { id: "sj", type: "spatial_join", points: "t", polygons: "cities", aggregations: [{ op: "sum", as: "s" }] },
    );
    doc.results.push({ key: "cities", kind: "table", from: "inside" }, { key: "r3", kind: "layer", from: "t" }, { key: "r4", kind: "layer", from: "ghost" });
    expect(errs(doc).sort()).toEqual(
      [
        "/inputs/2 unused_input",
        "/inputs/3/name duplicate_name",
        "/parameters/1/default invalid_type",
        "/results/2/from kind_mismatch",
        "/steps/3/type unknown_step_type",
        "/steps/4/extra unknown_option",
        "/steps/6/aggregations missing_option",
        "/steps/5/n/param unknown_parameter",
        "/steps/7/where/1/1 unknown_parameter",
        "/steps/8/id duplicate_name",
        "/steps/9/aggregations/0/field missing_option",
        "/results/2/key duplicate_result",
        "/results/3/from kind_mismatch",
        "/results/4/from unknown_reference",
      ].sort(),
    );
  });

  it("does not call an input unused when only an invalid step reads it", () => {
    const doc = {
      inputs: [
        { name: "layer", kind: "layer" },
        { name: "area", kind: "area" },
      ],
      steps: [{ id: "inside", type: "spatial_filter", source: "layer", by: "area", predicate: "overlapz" }],
      results: [{ key: "out", kind: "layer", from: "nope" }],
    };
    expect(errs(doc).sort()).toEqual(["/results/0/from unknown_reference", "/steps/0/predicate invalid_value"]);
  });

  it("reports references, parameter mismatches and kind mismatches of valid steps", () => {
    const doc = base() as Record<string, any>;
    doc.parameters.push({ name: "label", type: "string" });
    doc.steps.push(
      { id: "lim", type: "limit", source: "nope", n: { param: "label" } },
      { id: "lim2", type: "limit", source: "t", n: { param: "missing" } },
      { id: "sj", type: "spatial_join", points: "t", polygons: "cities", aggregations: [{ op: "count", as: "n" }] },
      { id: "pr", type: "points_from_rows", source: "cities", lon: "x", lat: "y" },
      { id: "u", type: "union", sources: ["cities", "t"] },
    );
    expect(errs(doc).sort()).toEqual(
      [
        "/steps/3/source unknown_reference",
        "/steps/3/n/param parameter_type_mismatch",
        "/steps/4/n/param unknown_parameter",
        "/steps/5/points kind_mismatch",
        "/steps/6/source kind_mismatch",
        "/steps/7/sources/1 kind_mismatch",
      ].sort(),
    );
  });

  it("finds cycles", () => {
    const doc = {
      inputs: [{ name: "c", kind: "layer" }],
      steps: [
        { id: "a", type: "rank", source: "b" },
        { id: "b", type: "rank", source: "a" },
        { id: "self", type: "rank", source: "self" },
        { id: "ok", type: "rank", source: "c" },
      ],
      results: [{ key: "r", kind: "layer", from: "ok" }],
    };
    expect(errs(doc).sort()).toEqual(["/steps/0 cycle", "/steps/1 cycle", "/steps/2 cycle"]);
  });

  it("reports schema errors of the top level and of items", () => {
    expect(errs({ inputs: [{ name: "a b", kind: "vector" }], steps: [], results: [], extra: 1 }).sort()).toEqual(
      ["/extra unknown_field", "/results too_small", "/inputs/0/name invalid_format", "/inputs/0/kind invalid_value"].sort(),
    );
    expect(errs(null)).toEqual([" invalid_type"]);
    expect(errs({ inputs: [], steps: [{ id: "x" }], results: [{ key: "k", kind: "layer", from: "x" }] })).toEqual(["/steps/0/type required"]);
  });

  it("escapes pointers and resolves parameters", () => {
    expect(
      errs({
        inputs: [{ name: "c", kind: "layer" }],
        steps: [{ id: "f", type: "filter", source: "c", where: ["foo"] }],
        results: [{ key: "r", kind: "layer", from: "f" }],
      }),
    ).toEqual(["/steps/0/where/0 invalid_expression"]);
    expect(jsonPointer(["a/b", "c~d", 0])).toBe("/a~1b/c~0d/0");
    expect(stepDefinition("limit")!.paramable).toEqual({ n: ["integer"], offset: ["integer"] });
    expect(resolveStep({ id: "l", type: "limit", source: "x", n: { param: "k" } }, { k: 3 })).toMatchObject({ n: 3 });
    expect(() => resolveStep({ id: "l", type: "limit", source: "x", n: { param: "k" } }, { k: -1 })).toThrow(/\/n/);
    expect(resolveStep({ id: "s", type: "sort", source: "x", field: "f", order: { param: "o" } }, {})).toMatchObject({ order: "asc" });
  });

  it("exports a JSON Schema", () => {
    const s = flowVersionJsonSchema();
    expect(s.type).toBe("object");
    expect(JSON.stringify(s)).toContain("spatial_join");
  });

  it("takes a declared geometry on layer inputs only", () => {
    const doc = base() as Record<string, any>;
    doc.inputs[0].geometry = "point";
    expect(validateFlowVersion(doc)).toMatchObject({ ok: true, flow: { inputs: [{ name: "cities", geometry: "point" }, { name: "area" }] } });
    doc.inputs[0].geometry = "points";
    doc.inputs[1].geometry = "polygon";
    // (An input that fails its schema is unknown to the steps as well: /steps/0/source unknown_reference.)
    expect(
      errs(doc)
        .filter((e) => e.startsWith("/inputs"))
        .sort(),
    ).toEqual(["/inputs/0/geometry invalid_value", "/inputs/1/geometry invalid_value"]);
  });
});
