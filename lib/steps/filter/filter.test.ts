/** Tests of the `filter` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { asPointColumns, fs, pt, runStep, table, F, R, P } from "@/lib/steps/test-helpers";
import { pointColumnsOf, pointFeatures } from "@/lib/steps/point-columns";
import { cities, rowsEdge } from "@/lib/steps/test-fixtures";

describe("filter", () => {
  it("filters features and rows with an expression and a parameter", async () => {
    const out = await runStep({ type: "filter", source: "c", where: [">=", ["get", "population"], ["var", "min"]] }, { c: fs(cities) }, "layer", {
      parameters: [{ name: "min", type: "integer", default: 0 }],
      params: { min: 100 },
    });
    expect(P(out).map((p) => p.name)).toEqual(["Zürich Nord", "B"]); // null population → false
    const rows = await runStep({ type: "filter", source: "t", where: ["==", ["get", "a b"], "é"] }, { t: table([{ "a b": "é" }, { "a b": "x" }]) }, "table");
    expect(R(rows)).toEqual([{ "a b": "é" }]);
  });

  it("filters nothing on empty input and can test geometry type", async () => {
    expect(F(await runStep({ type: "filter", source: "c", where: true }, { c: fs([]) }, "layer"))).toEqual([]);
    const out = await runStep({ type: "filter", source: "c", where: ["==", ["geometry-type"], "Point"] }, { c: fs(cities) }, "layer");
    expect(F(out)).toHaveLength(4);
  });

  it("passes the source itself on when every item is kept (its cached spatial index then serves the readers)", async () => {
    const layer = fs(cities);
    const kept = await runStep({ type: "filter", source: "c", where: true }, { c: layer }, "layer");
    expect(F(kept)).toBe(F(layer));
    const rows = table([{ a: 1 }, { a: 2 }]);
    expect(await runStep({ type: "filter", source: "t", where: [">", ["get", "a"], 0] }, { t: rows }, "table")).toBe(rows);
    expect(R(await runStep({ type: "filter", source: "t", where: [">", ["get", "a"], 1] }, { t: rows }, "table"))).toEqual([{ a: 2 }]);
  });
});

describe("filter over points held by column", () => {
  it("keeps what it keeps of the same features, whichever fields the expression reads", async () => {
    const features = [
      pt(1, 1, { name: "a", n: 5, maybe: undefined, __proto__x: 1 }),
      pt(2, 2, { name: "b", n: undefined, maybe: 0, __proto__x: 2 }),
      pt(3, 3, { name: null, n: 50, maybe: null, __proto__x: 3 }),
    ];
    const wheres = [
      [">=", ["to-number", ["get", "n"], 0], 5],
      ["has", "maybe"],
      ["==", ["get", ["concat", "na", "me"]], "b"],
      ["==", ["get", "maybe", ["properties"]], 0],
      ["all", ["has", "name"], ["!", ["has", "absent"]], ["!=", ["get", "name"], null]],
    ];
    for (const where of wheres) {
      const held = pointFeatures(asPointColumns(features)!);
      const out = await runStep({ type: "filter", source: "c", where }, { c: held }, "layer");
      const plain = await runStep({ type: "filter", source: "c", where }, { c: fs(features) }, "layer");
      expect(pointColumnsOf(held), JSON.stringify(where)).toBeDefined();
      expect(F(out), JSON.stringify(where)).toStrictEqual(F(plain));
    }
  });
});

describe("filter edge cases: attribute steps with unicode, spaces, nulls and empty input", () => {
  it("filter / select / compute read fields with spaces and non-Latin names", async () => {
    expect(R(await runStep({ type: "filter", source: "t", where: ["==", ["get", "ключ"], "a b"] }, { t: table(rowsEdge) }, "table"))).toHaveLength(2);
    expect(R(await runStep({ type: "select", source: "t", fields: [{ from: "Stadt name", as: "名前" }] }, { t: table(rowsEdge) }, "table"))).toEqual([
      { 名前: "Zürich" },
      { 名前: "Genève" },
      { 名前: "東京" },
    ]);
    const c = await runStep(
      { type: "compute", source: "t", field: "label ✓", expression: ["concat", ["get", "Stadt name"], " (", ["to-string", ["get", "Einw. gesamt"]], ")"] },
      { t: table(rowsEdge) },
      "table",
    );
    expect(R(c).map((r) => r["label ✓"])).toEqual(["Zürich (400)", "Genève ()", "東京 (9000)"]);
    for (const step of [
      { type: "filter", source: "t", where: true },
      { type: "select", source: "t", fields: ["x"] },
      { type: "compute", source: "t", field: "y", expression: 1 },
      { type: "sort", source: "t", field: "x" },
      { type: "limit", source: "t", n: 5 },
      { type: "rank", source: "t" },
    ])
      expect(R(await runStep(step, { t: table([], ["x"]) }, "table")), step.type).toEqual([]);
  });
});
