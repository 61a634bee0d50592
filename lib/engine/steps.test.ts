import { describe, expect, it } from "vitest";
import { distance } from "@turf/turf";
import { box, fs, pt, runStep, table, mustValidate } from "./test-helpers";
import { runFlow } from "./run-flow";
import { StepError } from "./errors";
import type { TFeature, TFeatureSet, TTable } from "./types";

const F = (d: unknown) => (d as TFeatureSet).features;
const R = (d: unknown) => (d as TTable).rows;
const P = (d: unknown) => F(d).map((f) => f.properties);

const cities = [
  pt(0.5, 0.5, { name: "Zürich Nord", population: 100, "max pop": 1 }),
  pt(1.5, 0.5, { name: "B", population: 300 }),
  pt(5, 5, { name: "Far", population: 50 }),
  { type: "Feature", geometry: null, properties: { name: "Nowhere", population: 7 } } as TFeature,
  pt(0.2, 0.2, { name: "NullPop", population: null }),
];

describe("filter / select / compute", () => {
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

  it("select keeps, renames and orders fields; missing ones become null", async () => {
    const out = await runStep({ type: "select", source: "c", fields: [{ from: "max pop", as: "größe x" }, "name"] }, { c: fs(cities.slice(0, 2)) }, "layer");
    expect(P(out)).toEqual([
      { "größe x": 1, name: "Zürich Nord" },
      { "größe x": null, name: "B" },
    ]);
    expect(Object.keys(P(out)[0])).toEqual(["größe x", "name"]);
    const t = await runStep({ type: "select", source: "t", fields: ["b"] }, { t: table([{ a: 1, b: 2 }]) }, "table");
    expect(t).toEqual({ kind: "rows", columns: ["b"], rows: [{ b: 2 }] });
  });

  it("compute adds a field and does not mutate the source", async () => {
    const src = [pt(0, 0, { a: 2 }), pt(0, 0, { a: null })];
    const out = await runStep({ type: "compute", source: "c", field: "double", expression: ["*", ["get", "a"], 2] }, { c: fs(src) }, "layer");
    expect(P(out)).toEqual([
      { a: 2, double: 4 },
      { a: null, double: null },
    ]);
    expect(src[0].properties).toEqual({ a: 2 });
    const t = await runStep({ type: "compute", source: "t", field: "s", expression: ["concat", ["get", "n"], "!"] }, { t: table([{ n: "x" }]) }, "table");
    expect(t).toEqual({ kind: "rows", columns: ["n", "s"], rows: [{ n: "x", s: "x!" }] });
  });
});

describe("sort / limit / rank / to_table / aggregate", () => {
  const rows = [
    { n: "a", v: 2 },
    { n: "b", v: null },
    { n: "c", v: 10 },
    { n: "d", v: 2 },
  ];
  it("sort is stable, nulls last in both orders", async () => {
    const asc = await runStep({ type: "sort", source: "t", field: "v" }, { t: table(rows) }, "table");
    expect(R(asc).map((r) => r.n)).toEqual(["a", "d", "c", "b"]);
    const desc = await runStep({ type: "sort", source: "t", field: "v", order: "desc" }, { t: table(rows) }, "table");
    expect(R(desc).map((r) => r.n)).toEqual(["c", "a", "d", "b"]);
    expect(rows[0].n).toBe("a");
  });
  it("limit with a parameter, offset, and rank", async () => {
    const out = await runStep({ type: "limit", source: "t", n: { param: "k" }, offset: 1 }, { t: table(rows) }, "table", {
      parameters: [{ name: "k", type: "integer", default: 2 }],
      params: { k: 2 },
    });
    expect(R(out).map((r) => r.n)).toEqual(["b", "c"]);
    const ranked = await runStep({ type: "rank", source: "t" }, { t: table(rows.slice(0, 2)) }, "table");
    expect(ranked).toEqual({
      kind: "rows",
      columns: ["rank", "n", "v"],
      rows: [
        { rank: 1, n: "a", v: 2 },
        { rank: 2, n: "b", v: null },
      ],
    });
    expect(R(await runStep({ type: "limit", source: "t", n: 0 }, { t: table(rows) }, "table"))).toEqual([]);
  });
  it("to_table drops geometry, with and without columns", async () => {
    const t = await runStep({ type: "to_table", source: "c", columns: ["name", { from: "population", as: "pop" }] }, { c: fs(cities.slice(0, 2)) }, "table");
    expect(t).toEqual({
      kind: "rows",
      columns: ["name", "pop"],
      rows: [
        { name: "Zürich Nord", pop: 100 },
        { name: "B", pop: 300 },
      ],
    });
    const all = (await runStep({ type: "to_table", source: "c" }, { c: fs(cities.slice(0, 2)) }, "table")) as TTable;
    expect(all.columns).toEqual(["name", "population", "max pop"]);
  });
  it("aggregate: one row without groups (also when empty), groups in first-seen order", async () => {
    const aggs = [
      { op: "count", as: "n" },
      { op: "sum", field: "v", as: "sum" },
      { op: "min", field: "v", as: "min" },
      { op: "max", field: "v", as: "max" },
      { op: "mean", field: "v", as: "mean" },
      { op: "count", field: "v", as: "n_v" },
    ];
    const one = await runStep({ type: "aggregate", source: "t", aggregations: aggs }, { t: table(rows) }, "table");
    expect(R(one)).toEqual([{ n: 4, sum: 14, min: 2, max: 10, mean: 14 / 3, n_v: 3 }]);
    const empty = await runStep({ type: "aggregate", source: "t", aggregations: aggs }, { t: table([], ["v"]) }, "table");
    expect(R(empty)).toEqual([{ n: 0, sum: 0, min: null, max: null, mean: null, n_v: 0 }]);
    const g = await runStep(
      { type: "aggregate", source: "t", group_by: ["k"], aggregations: [{ op: "sum", field: "v", as: "s" }] },
      { t: table([{ k: "x", v: 1 }, { k: "y", v: 2 }, { k: "x", v: 3 }, { v: 4 }]) },
      "table",
    );
    expect(g).toEqual({
      kind: "rows",
      columns: ["k", "s"],
      rows: [
        { k: "x", s: 4 },
        { k: "y", s: 2 },
        { k: null, s: 4 },
      ],
    });
  });
});

// A MultiPolygon with a hole in its first polygon: [0,4]² minus [1,3]², plus [10,11]².
const donut: TFeature = {
  type: "Feature",
  geometry: {
    type: "MultiPolygon",
    coordinates: [
      [
        [
          [0, 0],
          [4, 0],
          [4, 4],
          [0, 4],
          [0, 0],
        ],
        [
          [1, 1],
          [3, 1],
          [3, 3],
          [1, 3],
          [1, 1],
        ],
      ],
      [
        [
          [10, 10],
          [11, 10],
          [11, 11],
          [10, 11],
          [10, 10],
        ],
      ],
    ],
  },
  properties: { name: "Donut land" },
};

describe("spatial_filter", () => {
  const pts = [
    pt(0.5, 0.5, { id: 1 }),
    pt(2, 2, { id: 2 }),
    pt(10.5, 10.5, { id: 3 }),
    pt(0, 2, { id: 4 }),
    pt(20, 20, { id: 5 }),
    { type: "Feature", geometry: null, properties: { id: 6 } } as TFeature,
  ];
  const ids = (d: unknown) => P(d).map((p) => p.id);
  it("MultiPolygon with a hole: within excludes hole and boundary, intersects includes boundary", async () => {
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "d", predicate: "within" }, { p: fs(pts), d: fs([donut]) }, "layer"))).toEqual([1, 3]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "d" }, { p: fs(pts), d: fs([donut]) }, "layer"))).toEqual([1, 3, 4]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "d", predicate: "disjoint" }, { p: fs(pts), d: fs([donut]) }, "layer"))).toEqual([
      2, 5, 6,
    ]);
  });
  it("works against an area input, an omitted optional area, and lines/polygons", async () => {
    const area = { kind: "area" as const, geometry: box(0, 0, 3, 3).geometry as never };
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "a" }, { p: fs(pts), a: area }, "layer"))).toEqual([1, 2, 4]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "a" }, { p: fs(pts), a: null }, "layer", { optional: ["a"] }))).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    const line: TFeature = {
      type: "Feature",
      geometry: {
        type: "LineString",
        coordinates: [
          [-1, 2],
          [0.5, 2],
        ],
      },
      properties: { id: "l" },
    };
    const poly = box(2.5, 2.5, 5, 5, { id: "b" });
    expect(
      ids(await runStep({ type: "spatial_filter", source: "p", by: "a" }, { p: fs([line, poly, box(7, 7, 8, 8, { id: "x" })]), a: area }, "layer")),
    ).toEqual(["l", "b"]);
    expect(
      ids(
        await runStep(
          { type: "spatial_filter", source: "p", by: "a", predicate: "within" },
          { p: fs([line, poly, box(1, 1, 2, 2, { id: "in" })]), a: area },
          "layer",
        ),
      ),
    ).toEqual(["in"]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "a" }, { p: fs([]), a: area }, "layer"))).toEqual([]);
  });
});

describe("spatial_join", () => {
  it("counts and aggregates points per polygon (holes, MultiPolygon, empty polygons get 0/null)", async () => {
    const pts = [
      pt(0.5, 0.5, { v: 1 }),
      pt(2, 2, { v: 100 }),
      pt(10.5, 10.5, { v: 5 }),
      pt(30, 30, { v: 9 }),
      pt(30.5, 30.5, { v: "x" }),
      { type: "Feature", geometry: null, properties: { v: 1 } } as TFeature,
    ];
    const aggs = [
      { op: "count", as: "n" },
      { op: "sum", field: "v", as: "s" },
      { op: "mean", field: "v", as: "m" },
      { op: "max", field: "v", as: "mx" },
    ];
    const out = await runStep(
      { type: "spatial_join", points: "p", polygons: "g", aggregations: aggs },
      { p: fs(pts), g: fs([donut, box(29, 29, 31, 31, { name: "Sq" }), box(50, 50, 51, 51, { name: "Empty" })]) },
      "layer",
    );
    expect(P(out)).toEqual([
      { name: "Donut land", n: 2, s: 6, m: 3, mx: 5 },
      { name: "Sq", n: 2, s: 9, m: 9, mx: 9 },
      { name: "Empty", n: 0, s: 0, m: null, mx: null },
    ]);
    expect(F(out)[0].geometry).toBe(donut.geometry);
  });
  it("handles empty inputs", async () => {
    expect(
      P(
        await runStep(
          { type: "spatial_join", points: "p", polygons: "g", aggregations: [{ op: "count", as: "n" }] },
          { p: fs([]), g: fs([box(0, 0, 1, 1)]) },
          "layer",
        ),
      ),
    ).toEqual([{ n: 0 }]);
    expect(
      F(
        await runStep(
          { type: "spatial_join", points: "p", polygons: "g", aggregations: [{ op: "count", as: "n" }] },
          { p: fs([pt(0, 0)]), g: fs([]) },
          "layer",
        ),
      ),
    ).toEqual([]);
  });
});

describe("distance steps", () => {
  const places = [pt(0, 0, { id: "p1" }), pt(50, 50, { id: "far" })];
  const targets = [pt(0, 0.1, { name: "A", population: 10 }), pt(0.2, 0, { name: "B", population: 20 }), pt(0, 1, { name: "C", population: 5 })];
  const dA = distance([0, 0], [0, 0.1]);
  const dB = distance([0, 0], [0.2, 0]);
  it("nearest, within_distance, distance_pairs", async () => {
    const n = await runStep(
      { type: "nearest", source: "p", target: "t", max_km: 30, fields: [{ from: "name", as: "nearest" }] },
      { p: fs(places), t: fs(targets) },
      "layer",
    );
    expect(P(n)).toEqual([
      { id: "p1", nearest: "A", distance_km: dA },
      { id: "far", nearest: null, distance_km: null },
    ]);
    const w = await runStep(
      {
        type: "within_distance",
        source: "p",
        target: "t",
        max_km: 30,
        aggregations: [
          { op: "count", as: "n" },
          { op: "sum", field: "population", as: "pop" },
        ],
      },
      { p: fs(places), t: fs(targets) },
      "layer",
    );
    expect(P(w)).toEqual([
      { id: "p1", n: 2, pop: 30 },
      { id: "far", n: 0, pop: 0 },
    ]);
    const pairs = await runStep(
      { type: "distance_pairs", source: "p", target: "t", max_km: 30, source_fields: [{ from: "id", as: "place" }], target_fields: ["name"] },
      { p: fs(places), t: fs(targets) },
      "table",
    );
    expect(pairs).toEqual({
      kind: "rows",
      columns: ["place", "name", "distance_km"],
      rows: [
        { place: "p1", name: "A", distance_km: dA },
        { place: "p1", name: "B", distance_km: dB },
      ],
    });
  });
  it("respects the radius exactly (Turf haversine)", async () => {
    const w = await runStep(
      { type: "within_distance", source: "p", target: "t", max_km: dB, aggregations: [{ op: "count", as: "n" }] },
      { p: fs(places.slice(0, 1)), t: fs(targets) },
      "layer",
    );
    expect(P(w)[0].n).toBe(2);
    const w2 = await runStep(
      { type: "within_distance", source: "p", target: "t", max_km: dB - 1e-6, aggregations: [{ op: "count", as: "n" }] },
      { p: fs(places.slice(0, 1)), t: fs(targets) },
      "layer",
    );
    expect(P(w2)[0].n).toBe(1);
  });
});

describe("geometry and other steps", () => {
  it("points_from_rows makes points, null geometry for bad coordinates", async () => {
    const out = await runStep(
      { type: "points_from_rows", source: "t", lon: "x", lat: "y" },
      {
        t: table([
          { id: 1, x: 1, y: 2 },
          { id: 2, x: "3.5", y: "4" },
          { id: 3, x: 200, y: 0 },
          { id: 4, x: null, y: 1 },
        ]),
      },
      "layer",
    );
    expect(F(out).map((f) => f.geometry)).toEqual([{ type: "Point", coordinates: [1, 2] }, { type: "Point", coordinates: [3.5, 4] }, null, null]);
  });
  it("area, length, centroid, buffer, simplify", async () => {
    const sq = box(0, 0, 1, 1, { n: 1 });
    const a = P(await runStep({ type: "area", source: "g", field: "km2" }, { g: fs([sq, { type: "Feature", geometry: null, properties: {} }]) }, "layer"));
    expect(a[0].km2).toBeGreaterThan(12_300);
    expect(a[0].km2).toBeLessThan(12_400);
    expect(a[1].km2).toBeNull();
    const l = P(
      await runStep(
        { type: "length", source: "g" },
        {
          g: fs([
            {
              type: "Feature",
              geometry: {
                type: "LineString",
                coordinates: [
                  [0, 0],
                  [0, 1],
                ],
              },
              properties: {},
            },
          ]),
        },
        "layer",
      ),
    );
    expect(l[0].length).toBeCloseTo(111.195, 2);
    const c = F(await runStep({ type: "centroid", source: "g" }, { g: fs([sq]) }, "layer"));
    expect(c[0].geometry).toEqual({ type: "Point", coordinates: [0.5, 0.5] }); // mean of the distinct ring vertices (Turf centroid)
    const b = F(await runStep({ type: "buffer", source: "g", distance_km: 10 }, { g: fs([pt(0, 0)]) }, "layer"));
    expect(b[0].geometry?.type).toBe("Polygon");
    const s = F(
      await runStep(
        { type: "simplify", source: "g", tolerance: 0.5 },
        {
          g: fs([
            {
              type: "Feature",
              geometry: {
                type: "LineString",
                coordinates: [
                  [0, 0],
                  [1, 0.01],
                  [2, 0],
                ],
              },
              properties: {},
            },
          ]),
        },
        "layer",
      ),
    );
    expect(s[0].geometry).toEqual({
      type: "LineString",
      coordinates: [
        [0, 0],
        [2, 0],
      ],
    });
  });
  it("dissolve and clip", async () => {
    const d = F(
      await runStep(
        { type: "dissolve", source: "g", field: "k" },
        { g: fs([box(0, 0, 1, 1, { k: "a" }), box(1, 0, 2, 1, { k: "a" }), box(5, 5, 6, 6, { k: "b" })]) },
        "layer",
      ),
    );
    expect(d.map((f) => f.properties)).toEqual([{ k: "a" }, { k: "b" }]);
    expect(d[0].geometry?.type).toBe("Polygon");
    const c = F(
      await runStep(
        { type: "clip", source: "g", by: "a" },
        { g: fs([box(0, 0, 2, 2, { id: 1 }), pt(0.5, 0.5, { id: 2 }), pt(3, 3, { id: 3 })]), a: { kind: "area", geometry: box(1, 1, 4, 4).geometry as never } },
        "layer",
      ),
    );
    expect(c.map((f) => f.properties.id)).toEqual([1, 3]);
    expect(c[0].geometry?.type).toBe("Polygon");
  });
  it("join (left and inner) and union", async () => {
    const left = table([
      { code: "CH", v: 1 },
      { code: "XX", v: 2 },
    ]);
    const right = table([{ iso: "CH", label: "Schweiz" }]);
    expect(await runStep({ type: "join", left: "l", right: "r", left_field: "code", right_field: "iso" }, { l: left, r: right }, "table")).toEqual({
      kind: "rows",
      columns: ["code", "v", "label"],
      rows: [
        { code: "CH", v: 1, label: "Schweiz" },
        { code: "XX", v: 2, label: null },
      ],
    });
    expect(
      R(await runStep({ type: "join", left: "l", right: "r", left_field: "code", right_field: "iso", how: "inner" }, { l: left, r: right }, "table")),
    ).toHaveLength(1);
    const u = await runStep({ type: "union", sources: ["a", "b"] }, { a: table([{ x: 1 }]), b: table([{ y: 2 }]) }, "table");
    expect(u).toEqual({ kind: "rows", columns: ["x", "y"], rows: [{ x: 1 }, { y: 2 }] });
  });
});

describe("runFlow orchestration", () => {
  const flow = mustValidate({
    inputs: [{ name: "c", kind: "layer" }],
    steps: [
      { id: "b", type: "rank", source: "a" },
      { id: "a", type: "filter", source: "c", where: true },
    ],
    results: [{ key: "r", kind: "layer", from: "b" }],
  });
  it("runs in topological order and reports progress", async () => {
    const progress: [number, number][] = [];
    const [r] = await runFlow(flow, { c: fs([pt(0, 0)]) }, {}, { onProgress: (d, t) => progress.push([d, t]) });
    expect(P(r.data)).toEqual([{ rank: 1 }]);
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });
  it("stops when aborted, before and during a step", async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(runFlow(flow, { c: fs([pt(0, 0)]) }, {}, { signal: ac.signal })).rejects.toMatchObject({ name: "AbortError" });
    const many = fs(Array.from({ length: 300_000 }, (_, i) => pt(0, 0, { i })));
    const ac2 = new AbortController();
    const run = runFlow(flow, { c: many }, {}, { signal: ac2.signal, onProgress: () => ac2.abort() });
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
  });
  it("wraps step failures in StepError naming the step", async () => {
    const f = mustValidate({
      inputs: [{ name: "c", kind: "layer" }],
      parameters: [{ name: "n", type: "integer" }],
      steps: [{ id: "lim", type: "limit", source: "c", n: { param: "n" } }],
      results: [{ key: "r", kind: "layer", from: "lim" }],
    });
    const err = await runFlow(f, { c: fs([]) }, { n: -3 }).catch((e) => e);
    expect(err).toBeInstanceOf(StepError);
    expect(err.stepId).toBe("lim");
    await expect(runFlow(f, {}, { n: 1 })).rejects.toThrow(/required/);
  });
});
