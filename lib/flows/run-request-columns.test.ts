import { describe, expect, it } from "vitest";
import { NEARBY_CITIES } from "@/lib/demo/flows";
import { validateFlowVersion, type TFlowVersion } from "./definition";
import { parseRunRequest, runRequestJsonSchema } from "./run-request";

function valid(doc: unknown): TFlowVersion {
  const r = validateFlowVersion(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.flow;
}

const nearby = valid(NEARBY_CITIES);
const cities = { layer_id: "world-cities" };

function errorsFor(rows: unknown[]) {
  const r = parseRunRequest(nearby, { inputs: { places: { rows }, cities } });
  return r.ok ? [] : r.errors;
}

describe("declared table columns", () => {
  it("accepts rows that keep the declared columns, with extra columns and text or number ids", () => {
    const r = parseRunRequest(nearby, {
      inputs: {
        places: {
          rows: [
            { id: "a", lon: 8.5, lat: 47.3, note: "x" },
            { id: 2, lon: -180, lat: 90 },
          ],
        },
        cities,
      },
    });
    expect(r.ok).toBe(true);
  });

  it("names the faulty cell of each row: missing, out of range, wrong type, numeric text", () => {
    const rows = [
      { id: "ok", lon: 1, lat: 1 },
      { id: "no-lon", lat: 1 },
      { id: "far", lon: 200, lat: 1 },
      { id: "pole", lon: 1, lat: 91 },
      { id: "bool", lon: true, lat: 1 },
      { id: "text", lon: "8.5", lat: 1 },
      { lon: 1, lat: 1 },
    ];
    const errors = errorsFor(rows);
    expect(errors.map((e) => [e.field, e.code])).toEqual([
      ["/inputs/places/rows/1/lon", "required"],
      ["/inputs/places/rows/2/lon", "too_big"],
      ["/inputs/places/rows/3/lat", "too_big"],
      ["/inputs/places/rows/4/lon", "invalid_type"],
      ["/inputs/places/rows/5/lon", "invalid_type"],
      ["/inputs/places/rows/6/id", "required"],
    ]);
  });

  it("refuses null in a required column and non-scalars in undeclared ones", () => {
    const errors = errorsFor([
      { id: "a", lon: null, lat: 1 },
      { id: "b", lon: 1, lat: 1, extra: { nested: true } },
      { id: null, lon: 1, lat: 1 },
    ]);
    expect(errors.map((e) => [e.field, e.code])).toEqual([
      ["/inputs/places/rows/0/lon", "invalid_type"],
      ["/inputs/places/rows/1/extra", expect.any(String)],
      ["/inputs/places/rows/2/id", "invalid_type"],
    ]);
  });

  it("checks integer and optional columns; flows without declarations take any scalar rows", () => {
    const flow = valid({
      inputs: [
        {
          name: "t",
          kind: "table",
          columns: [
            { name: "n", type: "integer", minimum: 0 },
            { name: "ok", type: "boolean" },
          ],
        },
      ],
      steps: [],
      results: [{ key: "t", kind: "table", from: "t" }],
    });
    const ok = parseRunRequest(flow, { inputs: { t: { rows: [{}, { n: null, ok: null }, { n: 3, ok: true }] } } });
    expect(ok.ok).toBe(true);
    const bad = parseRunRequest(flow, { inputs: { t: { rows: [{ n: 1.5 }, { n: -1 }, { ok: "yes" }] } } });
    expect(bad.ok ? [] : bad.errors.map((e) => [e.field, e.code])).toEqual([
      ["/inputs/t/rows/0/n", "invalid_type"],
      ["/inputs/t/rows/1/n", "too_small"],
      ["/inputs/t/rows/2/ok", "invalid_type"],
    ]);
    const plain = valid({ inputs: [{ name: "t", kind: "table" }], steps: [], results: [{ key: "t", kind: "table", from: "t" }] });
    expect(parseRunRequest(plain, { inputs: { t: { rows: [{ lon: "x", lat: true }] } } }).ok).toBe(true);
  });

  it("shows the declared columns in the request's JSON Schema", () => {
    const places = (runRequestJsonSchema(nearby) as { properties: { inputs: { properties: Record<string, { anyOf: Record<string, unknown>[] }> } } }).properties
      .inputs.properties.places;
    const rows = places.anyOf.map((f) => (f.properties as Record<string, { items?: Record<string, unknown> }>).rows).find(Boolean)!;
    expect(rows.items).toMatchObject({
      properties: {
        id: { type: ["string", "number", "boolean"] },
        lon: { type: "number", minimum: -180, maximum: 180, description: "Longitude, WGS 84 degrees" },
        lat: { type: "number", minimum: -90, maximum: 90 },
      },
      required: ["id", "lon", "lat"],
    });
  });
});

describe("flow validation of column declarations", () => {
  it("reports columns on non-table inputs, duplicates, ranges on text and inverted ranges", () => {
    const r = validateFlowVersion({
      inputs: [
        { name: "a", kind: "area", columns: [{ name: "x", type: "number" }] },
        {
          name: "t",
          kind: "table",
          columns: [
            { name: "x", type: "number", minimum: 5, maximum: 1 },
            { name: "x", type: "string" },
            { name: "s", type: "string", minimum: 1 },
          ],
        },
      ],
      steps: [{ id: "c", type: "spatial_filter", source: "t", by: "a" }],
      results: [{ key: "t", kind: "table", from: "t" }],
    });
    expect(r.ok).toBe(false);
    const got = r.ok ? [] : r.errors.map((e) => [e.field, e.code]);
    expect(got).toEqual(
      expect.arrayContaining([
        ["/inputs/0/columns", "invalid_value"],
        ["/inputs/1/columns/0/maximum", "invalid_range"],
        ["/inputs/1/columns/1/name", "duplicate_column"],
        ["/inputs/1/columns/2/minimum", "invalid_value"],
      ]),
    );
  });
});
