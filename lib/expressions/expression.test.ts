/** Expressions: which fields an expression can read (`fieldsRead`), checked against what evaluating it reads. */
import { describe, expect, it } from "vitest";
import { compileExpression, fieldsRead } from "@/lib/expressions/expression";

describe("fieldsRead", () => {
  it("names the literal fields of get and has, whatever the nesting, and nothing of literals, vars or objects", () => {
    expect(fieldsRead([">=", ["to-number", ["get", "population"], 0], ["var", "min_population"]])).toEqual(["population"]);
    expect(fieldsRead(["all", ["has", "a"], ["==", ["get", "b"], ["get", "a"]], ["in", "x", ["literal", ["get", "c"]]]])).toEqual(["a", "b"]);
    expect(fieldsRead(["get", "k", ["literal", { k: 1 }]])).toEqual([]);
    expect(fieldsRead(["has", "k", ["get", "obj"]])).toEqual(["obj"]);
    expect(fieldsRead(true)).toEqual([]);
    expect(fieldsRead(["==", ["geometry-type"], "Point"])).toEqual([]);
    expect(fieldsRead(["==", ["number-format", ["get", "n"], { locale: ["get", "loc"] }], "1"])).toEqual(["n", "loc"]);
  });

  it("is null when the fields read are only known at run time", () => {
    expect(fieldsRead(["get", ["concat", "pop", "ulation"]])).toBeNull();
    expect(fieldsRead(["has", ["var", "field"]])).toBeNull();
    expect(fieldsRead(["==", ["length", ["properties"]], 2])).toBeNull();
    expect(fieldsRead(["let", "p", ["properties"], ["get", "a", ["var", "p"]]])).toBeNull();
  });

  it("lists every field the evaluation reads", () => {
    const expr = ["any", ["has", "missing"], [">", ["get", "n"], 1], ["==", ["get", "s"], "x"]];
    const read = new Set<string>();
    const props = new Proxy({ n: 2, s: "x", other: 1 } as Record<string, unknown>, {
      get: (t, k) => (typeof k === "string" && read.add(k), t[k as string]),
      has: (t, k) => (typeof k === "string" && read.add(k), k in t),
    });
    expect(compileExpression(expr, [], {}, "predicate")(props)).toBe(true);
    expect([...read].every((k) => fieldsRead(expr)!.includes(k))).toBe(true);
    expect(read.has("other")).toBe(false);
  });
});
