import { describe, expect, it } from "vitest";
import { CITIES_IN_AREA, NEARBY_CITIES, POPULATION_BY_COUNTRY } from "@/lib/demo/flows";
import { mustValidate } from "@/lib/steps/test-helpers";
import { datasetColumns, resultColumns } from "./result-columns";

const shape = (c: { fields: { name: string; type: string }[]; open: boolean }) => ({
  ...Object.fromEntries(c.fields.map((f) => [f.name, f.type])),
  "…": c.open,
});

describe("resultColumns", () => {
  it("derives the demo flows' result columns through the graph from the inputs' declarations", () => {
    const nearby = resultColumns(mustValidate(NEARBY_CITIES));
    expect(shape(nearby.places)).toEqual({
      id: "any",
      city_count: "integer",
      population_within: "integer",
      nearest_city: "string",
      nearest_km: "number",
      "…": false,
    });
    expect(nearby.places.fields.map((f) => f.name)).toEqual(["id", "city_count", "population_within", "nearest_city", "nearest_km"]);
    expect(shape(nearby.matches)).toEqual({
      place_id: "any",
      geonameid: "integer",
      name: "string",
      country: "string",
      population: "integer",
      distance_km: "number",
      "…": false,
    });
    const inArea = resultColumns(mustValidate(CITIES_IN_AREA));
    expect(shape(inArea.summary)).toEqual({ city_count: "integer", total_population: "integer", "…": false });
    const byCountry = resultColumns(mustValidate(POPULATION_BY_COUNTRY));
    expect(byCountry.ranking.fields.map((f) => [f.name, f.type])).toEqual([
      ["rank", "integer"],
      ["name", "string"],
      ["city_count", "integer"],
      ["city_population", "integer"],
    ]);
  });

  it("starts from declared table columns, keeps them open, and types aggregates of integer columns as integers", () => {
    const flow = mustValidate({
      inputs: [
        {
          name: "t",
          kind: "table",
          columns: [
            { name: "k", type: "string" },
            { name: "v", type: "integer" },
            { name: "x", type: "number" },
          ],
        },
        { name: "l", kind: "layer" },
        { name: "a", kind: "area" },
      ],
      steps: [
        {
          id: "agg",
          type: "aggregate",
          source: "t",
          group_by: ["k"],
          aggregations: [
            { op: "sum", field: "v", as: "s" },
            { op: "max", field: "x", as: "m" },
            { op: "mean", field: "v", as: "avg" },
          ],
        },
        { id: "c", type: "compute", source: "t", field: "x", expression: ["get", "k"] },
        { id: "clipped", type: "spatial_filter", source: "l", by: "a" },
        { id: "rows", type: "to_table", source: "clipped" },
        { id: "u", type: "union", sources: ["t", "rows"] },
        { id: "r", type: "rank", source: "t" },
      ],
      results: [
        { key: "agg", kind: "table", from: "agg" },
        { key: "c", kind: "table", from: "c" },
        { key: "area", kind: "layer", from: "a" },
        { key: "layer", kind: "layer", from: "clipped" },
        { key: "u", kind: "table", from: "u" },
        { key: "r", kind: "table", from: "r" },
      ],
    });
    const c = resultColumns(flow);
    expect(shape(c.agg)).toEqual({ k: "string", s: "integer", m: "number", avg: "number", "…": false });
    expect(shape(c.c)).toEqual({ k: "string", v: "integer", x: "any", "…": true });
    expect(shape(c.area)).toEqual({ "…": false });
    expect(shape(c.layer)).toEqual({ "…": true });
    expect(shape(c.u)).toEqual({ k: "any", v: "any", x: "any", "…": true });
    expect(c.r.fields.map((f) => f.name)).toEqual(["rank", "k", "v", "x"]);
  });
});

describe("datasetColumns", () => {
  it("gives every input's and step's columns of a valid flow, the same as its results'", () => {
    const all = datasetColumns(NEARBY_CITIES);
    const results = resultColumns(mustValidate(NEARBY_CITIES));
    expect(all.place_fields).toEqual(results.places);
    expect(all.pairs).toEqual(results.matches);
    expect(all.places!.fields.map((f) => f.name)).toEqual(["id", "lon", "lat"]);
    expect(Object.keys(all).sort()).toEqual(["big", "cities", "counted", "pairs", "place_fields", "places", "points", "with_nearest"]);
  });

  it("leaves out faulty steps and steps on a cycle, and reads unknown sources as unknown columns", () => {
    const doc = {
      inputs: [{ name: "t", kind: "table", columns: [{ name: "a", type: "integer" }] }, { name: 3 }],
      steps: [
        { id: "ok", type: "select", source: "t", fields: ["a"] },
        { id: "bad", type: "select", source: "t" },
        { id: "x", type: "rank", source: "y" },
        { id: "y", type: "rank", source: "x" },
        { id: "lost", type: "select", source: "nowhere", fields: ["b"] },
      ],
      results: [],
    };
    const all = datasetColumns(doc);
    expect(all.ok).toEqual({ fields: [{ name: "a", type: "integer" }], open: false });
    expect(all.bad).toBeUndefined();
    expect(all.lost).toEqual({ fields: [{ name: "b", type: "any" }], open: false });
    expect(Object.keys(all).sort()).toEqual(["lost", "ok", "t", "x", "y"]);
    expect(datasetColumns(null)).toEqual({});
  });
});
