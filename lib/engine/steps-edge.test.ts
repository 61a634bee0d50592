/**
 * Edge cases for every step type, on small inputs whose answers are worked out by hand:
 * empty inputs, MultiPolygons with holes, features without geometry, the antimeridian, and
 * unicode and spaces in property names and values. (steps.test.ts has the ordinary cases.)
 *
 * Handy numbers: 1° of a great circle = 6371.0088 km × π/180 = 111.19508 km; a 1°×1° box at
 * the equator has 12,363.7 km² (Turf area, spherical).
 */
import { describe, expect, it } from "vitest";
import { area as turfArea, distance } from "@turf/turf";
import type { MultiPolygon, Polygon } from "geojson";
import { box, fs, pt, runStep, table } from "./test-helpers";
import type { TFeature, TFeatureSet, TTable } from "./types";

const F = (d: unknown) => (d as TFeatureSet).features;
const R = (d: unknown) => (d as TTable).rows;
const P = (d: unknown) => F(d).map((f) => f.properties);
const DEG_KM = 111.19508023353887;
const BOX_KM2 = 12_363.718145180046;

const nullGeom = (properties: Record<string, unknown>): TFeature => ({ type: "Feature", geometry: null, properties });
// [0,4]² with the hole [1,3]², plus the island [10,11]².
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
  properties: { "Name des Lands": "Dönut Länd" },
};
// One square degree either side of the antimeridian, as RFC 7946 wants it: two parts.
const fiji: TFeature = {
  type: "Feature",
  geometry: {
    type: "MultiPolygon",
    coordinates: [
      [
        [
          [179, -17],
          [180, -17],
          [180, -16],
          [179, -16],
          [179, -17],
        ],
      ],
      [
        [
          [-180, -17],
          [-179, -17],
          [-179, -16],
          [-180, -16],
          [-180, -17],
        ],
      ],
    ],
  },
  properties: { name: "Viti Levu ∓180" },
};

describe("attribute steps with unicode, spaces, nulls and empty input", () => {
  const rows = [
    { "Stadt name": "Zürich", "Einw. gesamt": 400, ключ: "a b" },
    { "Stadt name": "Genève", "Einw. gesamt": null, ключ: "a b" },
    { "Stadt name": "東京", "Einw. gesamt": 9000, ключ: null },
  ];
  it("filter / select / compute read fields with spaces and non-Latin names", async () => {
    expect(R(await runStep({ type: "filter", source: "t", where: ["==", ["get", "ключ"], "a b"] }, { t: table(rows) }, "table"))).toHaveLength(2);
    expect(R(await runStep({ type: "select", source: "t", fields: [{ from: "Stadt name", as: "名前" }] }, { t: table(rows) }, "table"))).toEqual([
      { 名前: "Zürich" },
      { 名前: "Genève" },
      { 名前: "東京" },
    ]);
    const c = await runStep(
      { type: "compute", source: "t", field: "label ✓", expression: ["concat", ["get", "Stadt name"], " (", ["to-string", ["get", "Einw. gesamt"]], ")"] },
      { t: table(rows) },
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

  it("sort orders unicode text by code points and puts nulls last; limit past the end is fine", async () => {
    const s = await runStep({ type: "sort", source: "t", field: "Stadt name" }, { t: table(rows) }, "table");
    expect(R(s).map((r) => r["Stadt name"])).toEqual(["Genève", "Zürich", "東京"]);
    const n = await runStep({ type: "sort", source: "t", field: "Einw. gesamt", order: "desc" }, { t: table(rows) }, "table");
    expect(R(n).map((r) => r["Einw. gesamt"])).toEqual([9000, 400, null]);
    expect(R(await runStep({ type: "limit", source: "t", n: 10, offset: 2 }, { t: table(rows) }, "table"))).toHaveLength(1);
  });

  it("rank, to_table and aggregate keep unicode keys; null group keys form their own group", async () => {
    const r = await runStep({ type: "rank", source: "t", field: "Platz Nr." }, { t: table(rows) }, "table");
    expect((r as TTable).columns[0]).toBe("Platz Nr.");
    const t = await runStep({ type: "to_table", source: "c" }, { c: fs([pt(0, 0, { "a b": 1 }), nullGeom({ ü: 2 })]) }, "table");
    expect(t).toEqual({ kind: "rows", columns: ["a b", "ü"], rows: [{ "a b": 1 }, { ü: 2 }] });
    expect(await runStep({ type: "to_table", source: "c" }, { c: fs([]) }, "table")).toEqual({ kind: "rows", columns: [], rows: [] });
    const g = await runStep(
      {
        type: "aggregate",
        source: "t",
        group_by: ["ключ"],
        aggregations: [
          { op: "sum", field: "Einw. gesamt", as: "Σ" },
          { op: "count", as: "n" },
        ],
      },
      { t: table(rows) },
      "table",
    );
    expect(R(g)).toEqual([
      { ключ: "a b", Σ: 400, n: 2 },
      { ключ: null, Σ: 9000, n: 1 },
    ]);
    const empty = await runStep(
      { type: "aggregate", source: "t", group_by: ["k"], aggregations: [{ op: "count", as: "n" }] },
      { t: table([], ["k"]) },
      "table",
    );
    expect(R(empty)).toEqual([]); // no groups: no rows (without group_by there is one row, see steps.test.ts)
  });

  it("join matches unicode keys and keeps unmatched rows; union appends empty inputs", async () => {
    const left = table([
      { "Land code": "CH", n: 1 },
      { "Land code": "ÅL", n: 2 },
      { "Land code": null, n: 3 },
    ]);
    const right = table([
      { iso: "ÅL", "Name ✓": "Åland" },
      { iso: "ÅL", "Name ✓": "second match ignored" },
    ]);
    const j = await runStep({ type: "join", left: "l", right: "r", left_field: "Land code", right_field: "iso" }, { l: left, r: right }, "table");
    expect(R(j)).toEqual([
      { "Land code": "CH", n: 1, "Name ✓": null },
      { "Land code": "ÅL", n: 2, "Name ✓": "Åland" },
      { "Land code": null, n: 3, "Name ✓": null },
    ]);
    const lj = await runStep(
      { type: "join", left: "c", right: "r", left_field: "Land code", right_field: "iso", how: "inner" },
      { c: fs([pt(0, 0, { "Land code": "ÅL" }), nullGeom({ "Land code": "CH" })]), r: right },
      "layer",
    );
    expect(P(lj)).toEqual([{ "Land code": "ÅL", "Name ✓": "Åland" }]);
    const u = await runStep({ type: "union", sources: ["a", "b"] }, { a: fs([]), b: fs([nullGeom({ x: 1 })]) }, "layer");
    expect(P(u)).toEqual([{ x: 1 }]);
    const uo = await runStep({ type: "union", sources: ["a", "b"] }, { a: fs([pt(1, 1)]), b: null }, "layer", { optional: ["b"] });
    expect(F(uo)).toHaveLength(1);
  });

  it("points_from_rows reads unicode column names and numeric strings; bad values give null geometry", async () => {
    const out = await runStep(
      { type: "points_from_rows", source: "t", lon: "Länge °", lat: "Breite °" },
      {
        t: table([
          { "Länge °": 179.999, "Breite °": -16.5 },
          { "Länge °": "-180", "Breite °": "90" },
          { "Länge °": 10, "Breite °": 91 },
          { "Länge °": "", "Breite °": 0 },
        ]),
      },
      "layer",
    );
    expect(F(out).map((f) => f.geometry)).toEqual([{ type: "Point", coordinates: [179.999, -16.5] }, { type: "Point", coordinates: [-180, 90] }, null, null]);
    expect(F(await runStep({ type: "points_from_rows", source: "t", lon: "x", lat: "y" }, { t: table([], ["x", "y"]) }, "layer"))).toEqual([]);
  });
});

describe("spatial predicates with holes, null geometry and the antimeridian", () => {
  const pts = [
    pt(0.5, 0.5, { id: "in" }),
    pt(2, 2, { id: "hole" }),
    pt(1, 2, { id: "hole edge" }),
    pt(10.5, 10.5, { id: "island" }),
    pt(179.5, -16.5, { id: "fiji east" }),
    pt(-179.5, -16.5, { id: "fiji west" }),
    nullGeom({ id: "none" }),
  ];
  const ids = (d: unknown) => P(d).map((p) => p.id);

  it("intersects / within / disjoint against a holed MultiPolygon and an antimeridian MultiPolygon", async () => {
    const by = fs([donut, fiji]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "b" }, { p: fs(pts), b: by }, "layer"))).toEqual([
      "in",
      "hole edge",
      "island",
      "fiji east",
      "fiji west",
    ]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "b", predicate: "within" }, { p: fs(pts), b: by }, "layer"))).toEqual([
      "in",
      "island",
      "fiji east",
      "fiji west",
    ]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "b", predicate: "disjoint" }, { p: fs(pts), b: by }, "layer"))).toEqual([
      "hole",
      "none",
    ]);
    expect(ids(await runStep({ type: "spatial_filter", source: "p", by: "b" }, { p: fs(pts), b: fs([]) }, "layer"))).toEqual([]);
  });

  it("contains: polygons that contain a point of `by` (not in a hole, not on the boundary)", async () => {
    const polys = fs([
      { ...donut, properties: { id: "donut" } },
      { ...fiji, properties: { id: "fiji" } },
      box(-1, -1, 0.2, 0.2, { id: "small" }),
      nullGeom({ id: "none" }),
    ]);
    expect(ids(await runStep({ type: "spatial_filter", source: "g", by: "p", predicate: "contains" }, { g: polys, p: fs([pt(0.5, 0.5)]) }, "layer"))).toEqual([
      "donut",
    ]);
    expect(
      ids(await runStep({ type: "spatial_filter", source: "g", by: "p", predicate: "contains" }, { g: polys, p: fs([pt(2, 2), pt(1, 2)]) }, "layer")),
    ).toEqual([]);
    expect(
      ids(await runStep({ type: "spatial_filter", source: "g", by: "p", predicate: "contains" }, { g: polys, p: fs([pt(-179.5, -16.2)]) }, "layer")),
    ).toEqual(["fiji"]);
    expect(
      ids(await runStep({ type: "spatial_filter", source: "g", by: "p", predicate: "contains" }, { g: polys, p: fs([box(0.2, 0.2, 0.8, 0.8)]) }, "layer")),
    ).toEqual(["donut"]);
    expect(
      ids(await runStep({ type: "spatial_filter", source: "g", by: "p", predicate: "contains" }, { g: polys, p: fs([box(0.5, 0.5, 1.5, 1.5)]) }, "layer")),
    ).toEqual([]); // reaches into the hole
  });

  it("spatial_join counts points on both sides of the antimeridian and none in holes", async () => {
    const aggs = [
      { op: "count", as: "n" },
      { op: "sum", field: "v", as: "Σ v" },
      { op: "min", field: "v", as: "min" },
      { op: "max", field: "v", as: "max" },
      { op: "mean", field: "v", as: "mean" },
    ];
    const points = fs(pts.map((p, i) => ({ ...p, properties: { ...p.properties, v: i } })));
    const out = await runStep(
      { type: "spatial_join", points: "p", polygons: "g", aggregations: aggs },
      { p: points, g: fs([donut, fiji, nullGeom({ name: "no shape" })]) },
      "layer",
    );
    expect(P(out)).toEqual([
      { "Name des Lands": "Dönut Länd", n: 3, "Σ v": 0 + 2 + 3, min: 0, max: 3, mean: 5 / 3 }, // "in", "hole edge" (boundary counts), "island"
      { name: "Viti Levu ∓180", n: 2, "Σ v": 4 + 5, min: 4, max: 5, mean: 4.5 },
      { name: "no shape", n: 0, "Σ v": 0, min: null, max: null, mean: null },
    ]);
  });

  it("clip cuts a holed MultiPolygon to an area and drops null geometry", async () => {
    const area = { kind: "area" as const, geometry: box(0, 0, 2, 2).geometry as Polygon };
    const out = F(await runStep({ type: "clip", source: "g", by: "a" }, { g: fs([donut, nullGeom({ id: 1 }), pt(5, 5)]), a: area }, "layer"));
    expect(out).toHaveLength(1);
    // [0,2]² minus the hole's corner [1,2]²: three of four unit squares.
    expect(turfArea(out[0]!.geometry!) / turfArea(box(0, 0, 1, 1).geometry!)).toBeCloseTo(3, 2);
    expect(F(await runStep({ type: "clip", source: "g", by: "a" }, { g: fs([]), a: area }, "layer"))).toEqual([]);
  });
});

describe("distance steps across the antimeridian, with empty targets and null geometry", () => {
  const places = [pt(179.99, 0, { "Ort ✓": "east" }), pt(-179.99, 0, { "Ort ✓": "west" }), nullGeom({ "Ort ✓": "none" })];
  const targets = [pt(-179.995, 0, { name: "Ostwärts", pop: 10 }), pt(170, 0, { name: "far", pop: 1 })];
  const dEast = distance([179.99, 0], [-179.995, 0]); // 0.015° = 1.668 km across the line
  it("nearest / within_distance / distance_pairs see targets on the other side", async () => {
    expect(dEast).toBeCloseTo(0.015 * DEG_KM, 6);
    const n = await runStep(
      { type: "nearest", source: "p", target: "t", max_km: 10, fields: [{ from: "name", as: "nächste" }] },
      { p: fs(places), t: fs(targets) },
      "layer",
    );
    expect(P(n)).toEqual([
      { "Ort ✓": "east", nächste: "Ostwärts", distance_km: dEast },
      { "Ort ✓": "west", nächste: "Ostwärts", distance_km: distance([-179.99, 0], [-179.995, 0]) },
      { "Ort ✓": "none", nächste: null, distance_km: null },
    ]);
    const w = await runStep(
      {
        type: "within_distance",
        source: "p",
        target: "t",
        max_km: 10,
        aggregations: [
          { op: "count", as: "n" },
          { op: "mean", field: "pop", as: "ø" },
        ],
      },
      { p: fs(places), t: fs(targets) },
      "layer",
    );
    expect(P(w).map((p) => [p.n, p["ø"]])).toEqual([
      [1, 10],
      [1, 10],
      [0, null],
    ]);
    const pairs = await runStep(
      { type: "distance_pairs", source: "p", target: "t", max_km: 1200, source_fields: ["Ort ✓"], target_fields: ["name"] },
      { p: fs(places), t: fs(targets) },
      "table",
    );
    expect(R(pairs).map((r) => [r["Ort ✓"], r.name])).toEqual([
      ["east", "Ostwärts"],
      ["east", "far"],
      ["west", "Ostwärts"],
      ["west", "far"],
    ]);
  });
  it("empty targets give nulls and zero counts; empty sources give nothing", async () => {
    const n = await runStep({ type: "nearest", source: "p", target: "t", max_km: 10, fields: ["name"] }, { p: fs(places.slice(0, 1)), t: fs([]) }, "layer");
    expect(P(n)).toEqual([{ "Ort ✓": "east", name: null, distance_km: null }]);
    const w = await runStep(
      { type: "within_distance", source: "p", target: "t", max_km: 10, aggregations: [{ op: "count", as: "n" }] },
      { p: fs(places.slice(0, 1)), t: fs([nullGeom({})]) },
      "layer",
    );
    expect(P(w)[0]!.n).toBe(0);
    expect(R(await runStep({ type: "distance_pairs", source: "p", target: "t", max_km: 10 }, { p: fs([]), t: fs(targets) }, "table"))).toEqual([]);
  });
});

describe("geometry steps on holes, null geometry and the antimeridian", () => {
  it("area: geodesic m² / km² / ha; holes subtract; antimeridian parts add up", async () => {
    const a = P(await runStep({ type: "area", source: "g", field: "Fläche m²", unit: "m2" }, { g: fs([box(0, 0, 1, 1), donut, fiji, nullGeom({})]) }, "layer"));
    expect(a[0]!["Fläche m²"]).toBeCloseTo(BOX_KM2 * 1e6, -3);
    const parts = (c: number[][][]) => turfArea({ type: "Polygon", coordinates: c });
    const d = donut.geometry as MultiPolygon;
    expect(a[1]!["Fläche m²"]).toBeCloseTo(parts(d.coordinates[0]!.slice(0, 1)) - parts(d.coordinates[0]!.slice(1)) + parts(d.coordinates[1]!), -2);
    expect((a[1]!["Fläche m²"] as number) / 1e6 / BOX_KM2).toBeCloseTo(12.96, 1); // 16 - 4 + 1 squares, the island at 10° N a little smaller
    expect((a[2]!["Fläche m²"] as number) / 1e6).toBeCloseTo((2 * turfArea(box(0, -17, 1, -16).geometry!)) / 1e6, 3);
    expect(a[3]!["Fläche m²"]).toBeNull();
    const ha = P(await runStep({ type: "area", source: "g", unit: "ha" }, { g: fs([box(0, 0, 1, 1)]) }, "layer"));
    expect(ha[0]!.area).toBeCloseTo(BOX_KM2 * 100, -1);
  });

  it("length: geodesic m; a line across the antimeridian is 1°, a polygon's perimeter counts its holes", async () => {
    const line: TFeature = {
      type: "Feature",
      geometry: {
        type: "LineString",
        coordinates: [
          [179.5, 0],
          [-179.5, 0],
        ],
      },
      properties: {},
    };
    const l = P(await runStep({ type: "length", source: "g", field: "Länge", unit: "m" }, { g: fs([line, nullGeom({}), box(0, 0, 1, 1)]) }, "layer"));
    expect(l[0]!["Länge"]).toBeCloseTo(DEG_KM * 1000, 3);
    expect(l[1]!["Länge"]).toBeNull();
    expect(l[2]!["Länge"]).toBeCloseTo((3 * DEG_KM + distance([0, 1], [1, 1])) * 1000, 3);
    const withHole = P(
      await runStep(
        { type: "length", source: "g" },
        { g: fs([{ ...donut, geometry: { type: "Polygon", coordinates: (donut.geometry as MultiPolygon).coordinates[0]! } }]) },
        "layer",
      ),
    );
    expect(withHole[0]!.length).toBeGreaterThan(23 * DEG_KM); // 16° outer + 8° hole, a little less off the equator
  });

  it("buffer: vertices at the distance; null geometry stays null; across the antimeridian it is split", async () => {
    const b = F(await runStep({ type: "buffer", source: "g", distance_km: 10 }, { g: fs([pt(8, 47), nullGeom({ k: 1 })]) }, "layer"));
    const ring = (b[0]!.geometry as Polygon).coordinates[0]!;
    for (const p of ring) expect(distance([8, 47], p)).toBeCloseTo(10, 1);
    expect(b[1]).toMatchObject({ geometry: null, properties: { k: 1 } });
    const am = F(await runStep({ type: "buffer", source: "g", distance_km: 10 }, { g: fs([pt(179.99, 0)]) }, "layer"))[0]!.geometry as MultiPolygon;
    expect(am.type).toBe("MultiPolygon");
    const xs = am.coordinates.flat(2).map((p) => p[0]!);
    expect(xs.every((x) => x > 179.8 || x < -179.8)).toBe(true); // no globe-spanning ring
    const total = am.coordinates.reduce((s, c) => s + turfArea({ type: "Polygon", coordinates: c }), 0);
    const plain = turfArea(F(await runStep({ type: "buffer", source: "g", distance_km: 10 }, { g: fs([pt(0, 0)]) }, "layer"))[0]!.geometry!);
    expect(total / plain).toBeCloseTo(1, 2);
    expect(F(await runStep({ type: "buffer", source: "g", distance_km: 10 }, { g: fs([]) }, "layer"))).toEqual([]);
  });

  it("centroid and simplify keep null geometry; simplify keeps holes", async () => {
    const c = F(await runStep({ type: "centroid", source: "g" }, { g: fs([box(0, 0, 2, 2), nullGeom({ "a b": "ü" })]) }, "layer"));
    expect(c[0]!.geometry).toEqual({ type: "Point", coordinates: [1, 1] });
    expect(c[1]).toMatchObject({ geometry: null, properties: { "a b": "ü" } });
    const pof = F(await runStep({ type: "centroid", source: "g", method: "point_on_feature" }, { g: fs([donut]) }, "layer"))[0]!;
    expect(pof.geometry?.type).toBe("Point");
    const s = F(await runStep({ type: "simplify", source: "g", tolerance: 0.01 }, { g: fs([donut, nullGeom({})]) }, "layer"));
    expect((s[0]!.geometry as MultiPolygon).coordinates[0]).toHaveLength(2); // outer ring and hole
    expect(s[1]!.geometry).toBeNull();
  });

  it("dissolve by a unicode field: touching boxes merge, null geometry is skipped, empty input gives nothing", async () => {
    const d = F(
      await runStep(
        { type: "dissolve", source: "g", field: "Kanton" },
        {
          g: fs([
            box(0, 0, 1, 1, { Kanton: "Zürich Ost" }),
            box(1, 0, 2, 1, { Kanton: "Zürich Ost" }),
            box(5, 5, 6, 6, { Kanton: "Genève" }),
            nullGeom({ Kanton: "Zürich Ost" }),
          ]),
        },
        "layer",
      ),
    );
    expect(d.map((f) => f.properties)).toEqual([{ Kanton: "Zürich Ost" }, { Kanton: "Genève" }]);
    expect(turfArea(d[0]!.geometry!) / 1e6 / BOX_KM2).toBeCloseTo(2, 3);
    expect(F(await runStep({ type: "dissolve", source: "g" }, { g: fs([]) }, "layer"))).toEqual([]);
    const all = F(await runStep({ type: "dissolve", source: "g" }, { g: fs([donut, box(1, 1, 3, 3)]) }, "layer"));
    expect(turfArea(all[0]!.geometry!) / 1e6 / BOX_KM2).toBeCloseTo(16 + 0.98, 1); // the box fills the hole
  });
});
