import { describe, expect, it } from "vitest";
import { DEMO_FLOWS, NEARBY_CITIES } from "@/lib/demo/flows";
import { stepCatalogue } from "@/lib/steps/catalogue";
import { validateFlowVersion } from "@/lib/flows/validate-flow-version";
import { documentToGraph, graphToDocument, nodeIdOfPointer, type TFlowDoc } from "./flow-graph-model";
import { canConnect, connect, removeFromDocument } from "./flow-connections";
import { addItem, newStep, renameInDocument } from "./document-edits";

const catalogue = stepCatalogue();
const clone = (d: unknown) => structuredClone(d) as TFlowDoc;

describe("documentToGraph / graphToDocument", () => {
  for (const demo of DEMO_FLOWS) {
    it(`round-trips the demo flow "${demo.flowName}" unchanged, key order included`, () => {
      const doc = clone(demo.definition);
      const { nodes, edges } = documentToGraph(doc, catalogue);
      const back = graphToDocument(doc, nodes, edges);
      expect(JSON.stringify(back)).toBe(JSON.stringify(demo.definition));
      // One node per input, parameter, step and result; one edge per source reference and result.
      const d = demo.definition as Required<TFlowDoc>;
      expect(nodes).toHaveLength(d.inputs.length + d.parameters.length + d.steps.length + d.results.length);
      const refs =
        d.results.length +
        d.steps.reduce(
          (n, s) =>
            n +
            (Array.isArray(s.sources) ? s.sources.length : 0) +
            ["source", "target", "by", "points", "polygons", "left", "right"].filter((k) => typeof s[k] === "string").length,
          0,
        );
      expect(edges.filter((e) => !e.param)).toHaveLength(refs);
    });
  }

  it('draws the parameters a step reads ({param} and ["var"]) as parameter edges', () => {
    const { edges } = documentToGraph(clone(NEARBY_CITIES), catalogue);
    const params = edges.filter((e) => e.param).map((e) => `${e.source}->${e.target}`);
    expect(params.sort()).toEqual([
      "param:min_population->step:big",
      "param:radius_km->step:counted",
      "param:radius_km->step:pairs",
      "param:radius_km->step:with_nearest",
    ]);
  });

  it("keeps a reference that names nothing, and gives names used twice their own node ids", () => {
    const doc: TFlowDoc = {
      inputs: [{ name: "a", kind: "table" }],
      steps: [
        { id: "s", type: "rank", source: "nowhere" },
        { id: "s", type: "rank", source: "a" },
      ],
      results: [{ key: "r", kind: "table", from: "s" }],
    };
    const { nodes, edges } = documentToGraph(doc, catalogue);
    expect(nodes.map((n) => n.id)).toEqual(["input:a", "step:s", "step:s~2", "result:r"]);
    expect(graphToDocument(doc, nodes, edges)).toEqual(doc);
  });
});

describe("canvas edits", () => {
  const base = (): TFlowDoc => ({
    inputs: [
      { name: "stores", kind: "table" },
      { name: "cities", kind: "layer" },
    ],
    parameters: [{ name: "radius_km", type: "number" }],
    steps: [],
    results: [],
  });

  it("builds a valid flow from new steps, connections and a result", () => {
    const byType = (t: string) => catalogue.find((c) => c.type === t)!;
    let doc = addItem(base(), "steps", newStep(base(), byType("points_from_rows")));
    expect(doc.steps![0]).toEqual({ id: "points_from_rows", type: "points_from_rows" });
    doc = connect(doc, catalogue, "input:stores", "step:points_from_rows", "source");
    doc.steps![0] = { ...doc.steps![0], lon: "lon", lat: "lat" };
    const wd = newStep(doc, byType("within_distance"));
    expect(wd.aggregations).toEqual([{ op: "count", as: "count" }]);
    doc = addItem(doc, "steps", { ...wd, max_km: { param: "radius_km" } });
    doc = connect(doc, catalogue, "step:points_from_rows", "step:within_distance", "source");
    doc = connect(doc, catalogue, "input:cities", "step:within_distance", "target");
    doc = addItem(doc, "results", { key: "out", kind: "layer" });
    doc = connect(doc, catalogue, "step:within_distance", "result:out", "from");
    expect(validateFlowVersion(doc)).toMatchObject({ ok: true });
    expect(doc.steps![1]).toMatchObject({ source: "points_from_rows", target: "cities" });
    // Connecting another source into a single option replaces the first.
    const again = connect(doc, catalogue, "input:cities", "step:within_distance", "source");
    expect(again.steps![1]!.source).toBe("cities");
  });

  it("refuses connections of the wrong kind, into itself or making a cycle", () => {
    let doc = addItem(base(), "steps", { id: "pts", type: "points_from_rows", source: "stores", lon: "x", lat: "y" });
    doc = addItem(doc, "steps", { id: "buf", type: "buffer", source: "pts", distance_km: 1 });
    doc = addItem(doc, "results", { key: "t", kind: "table" });
    const { nodes } = documentToGraph(doc, catalogue);
    const ok = (s: string, t: string, h: string) => canConnect(doc, catalogue, nodes, s, t, h);
    expect(ok("input:stores", "step:pts", "source")).toBe(true);
    expect(ok("input:cities", "step:pts", "source")).toBe(false); // a layer where rows are needed
    expect(ok("step:buf", "step:buf", "source")).toBe(false);
    expect(ok("step:buf", "step:pts", "source")).toBe(false); // a cycle (and features into rows)
    expect(ok("step:pts", "result:t", "from")).toBe(false); // features into a table result
    expect(ok("input:stores", "result:t", "from")).toBe(true);
    expect(ok("param:radius_km", "step:buf", "source")).toBe(false);
  });

  it("removes nodes with the references to them, and edges with their options", () => {
    const doc = clone(NEARBY_CITIES);
    const noBig = removeFromDocument(doc, catalogue, ["step:big"], []);
    expect(noBig.steps!.map((s) => s.id)).not.toContain("big");
    expect(noBig.steps!.find((s) => s.id === "counted")).not.toHaveProperty("target");
    const noEdge = removeFromDocument(doc, catalogue, [], ["step:points->step:pairs:source"]);
    expect(noEdge.steps!.find((s) => s.id === "pairs")).not.toHaveProperty("source");
    expect(noEdge.steps!.find((s) => s.id === "counted")!.source).toBe("points");
    const noParam = removeFromDocument(doc, catalogue, ["param:radius_km"], []);
    expect(noParam.steps!.find((s) => s.id === "counted")).not.toHaveProperty("max_km");
    expect(NEARBY_CITIES.steps[2]).toHaveProperty("max_km");
  });

  it("renames a step and a parameter everywhere they are read", () => {
    const doc = clone(NEARBY_CITIES);
    const r = renameInDocument(doc, catalogue, "step", "big", "large");
    expect(r.steps!.filter((s) => s.target === "large")).toHaveLength(3);
    const p = renameInDocument(doc, catalogue, "parameter", "min_population", "least");
    expect(JSON.stringify(p.steps![1]!.where)).toContain('["var","least"]');
  });

  it("maps a problem's JSON Pointer to its node", () => {
    const doc = clone(NEARBY_CITIES);
    expect(nodeIdOfPointer(doc, "/steps/2/max_km/param")).toBe("step:counted");
    expect(nodeIdOfPointer(doc, "/results/1")).toBe("result:matches");
    expect(nodeIdOfPointer(doc, "/inputs/0/columns/1/type")).toBe("input:places");
    expect(nodeIdOfPointer(doc, "/description")).toBeNull();
    expect(nodeIdOfPointer(doc, "/steps/99")).toBeNull();
  });
});
