/**
 * planLayerBoxes: the planned box of each layer input, for the demo flows and hand-made ones
 * (expected boxes worked out by hand), and the promise it makes: running a flow with each layer
 * restricted to its planned box gives the results of the whole layers (real data, lighter to
 * keep the suite quick: every 8th of the 135,233 cities, and Natural Earth's 1:110m countries
 * cut at the antimeridian as the demo's 1:50m ones are; random areas, places and parameters).
 */
import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { bbox } from "@turf/turf";
import type { FeatureCollection, Polygon } from "geojson";
import { applyParameterDefaults } from "@/lib/flows/run-request";
import { CITIES_IN_AREA, NEARBY_CITIES, POPULATION_BY_COUNTRY } from "@/lib/demo/flows";
import { countriesFromTopology, loadWorldCities, type TCountriesTopology } from "@/lib/demo/real-data";
import { planLayerBoxes } from "@/lib/engine/plan-boxes";
import { runFlow } from "@/lib/engine/run-flow";
import type { TBox, TFeature, TResolvedInputs } from "@/lib/engine/types";
import { featuresBox } from "@/lib/steps/extent";
import { layerSource, mustValidate, pt, restrictToBox } from "@/lib/steps/test-helpers";
import { tableFromRows } from "@/lib/steps/dataset";

/** Natural Earth's 1:110m countries (world-atlas), made valid as the demo layer's 1:50m ones are. */
const countries110m = () => countriesFromTopology(createRequire(import.meta.url)("world-atlas/countries-110m.json") as TCountriesTopology);

const polygon = (ring: [number, number][]): Polygon => ({ type: "Polygon", coordinates: [[...ring, ring[0]!]] });
const area = (ring: [number, number][]) => ({ kind: "area" as const, geometry: polygon(ring) });
const layer = (features: TFeature[]) => ({ kind: "features" as const, features });
const places = (rows: Record<string, unknown>[]) => tableFromRows(["id", "lon", "lat"], rows);

function plan(doc: unknown, inputs: TResolvedInputs, params: Record<string, unknown> = {}) {
  const flow = mustValidate(doc);
  return planLayerBoxes(flow, inputs, applyParameterDefaults(flow, params));
}

/** A flow over layer `cities` (and `countries`), area `a` (and `b`), table `places`, with the given steps and results. */
function flowOf(
  steps: unknown[],
  results: { key: string; kind?: "layer" | "table"; from: string }[],
  extra: { inputs?: unknown[]; parameters?: unknown[] } = {},
) {
  return {
    inputs: [{ name: "cities", kind: "layer" }, ...(extra.inputs ?? [])],
    parameters: extra.parameters ?? [],
    steps,
    results: results.map((r) => ({ kind: "layer", ...r })),
  };
}

const TRIANGLE = area([
  [10, 40],
  [20, 45],
  [12, 50],
]);
const COS_54 = 0.5877852522924731; // cos(54°)

describe("planLayerBoxes on the demo flows", () => {
  const world = [pt(-170, -50), pt(170, 70)];
  it("Cities in area: the area's box, whether the layer is in memory or a file", () => {
    expect(plan(CITIES_IN_AREA, { cities: layer(world), area: TRIANGLE })).toEqual({ cities: [10, 40, 20, 50] });
    expect(plan(CITIES_IN_AREA, { cities: layerSource(world), area: TRIANGLE })).toEqual({ cities: [10, 40, 20, 50] });
  });

  it("Population by country: the cities within the countries' box, every country", () => {
    const countries = countries110m();
    const [w, s, e, n] = bbox({ type: "FeatureCollection", features: countries.features } as FeatureCollection);
    expect(plan(POPULATION_BY_COUNTRY, { cities: layerSource(world), countries: layerSource(countries.features) })).toEqual({
      cities: [w, s, e, n],
      countries: null,
    });
    const small = [pt(1, 2), pt(3, -4)];
    expect(plan(POPULATION_BY_COUNTRY, { cities: layerSource(world), countries: layer(small) })).toEqual({ cities: [1, -4, 3, 2], countries: null });
  });

  it("Nearby cities: the places' box grown by the radius (rows without a valid position left out)", () => {
    const rows = places([
      { id: 1, lon: 10, lat: 50 },
      { id: 2, lon: "12", lat: 52 }, // numeric text reads as its number, as points_from_rows reads it
      { id: 3, lon: 0, lat: 95 }, // out of range: no point
      { id: 4, lon: null, lat: 0 },
    ]);
    // 222 km = 2°: 48..54 N, longitudes by 2 / cos(54°)
    expect(plan(NEARBY_CITIES, { places: rows, cities: layerSource(world) }, { radius_km: 222 })).toEqual({
      cities: [10 - 2 / COS_54, 48, 12 + 2 / COS_54, 54],
    });
    // no place with a position: unknown extent, the whole layer
    expect(plan(NEARBY_CITIES, { places: places([{ id: 3, lon: 0, lat: 95 }]), cities: layerSource(world) })).toEqual({ cities: null });
  });
});

describe("planLayerBoxes on hand-made flows", () => {
  const cities = layerSource([pt(-170, -50), pt(170, 70)]);
  const a = { name: "a", kind: "area" };
  const inside = (source: string, by = "a", predicate = "intersects") => ({ id: `in_${source}_${by}`, type: "spatial_filter", source, by, predicate });

  it("passes the box through filter, select, compute, sort, centroid; not through limit or rank", () => {
    const chain = [
      { id: "f", type: "filter", source: "cities", where: true },
      { id: "s", type: "select", source: "f", fields: ["name"] },
      { id: "c", type: "compute", source: "s", field: "x", expression: 1 },
      { id: "o", type: "sort", source: "c", field: "x" },
      { id: "m", type: "centroid", source: "o" },
      inside("m"),
    ];
    expect(plan(flowOf(chain, [{ key: "r", from: "in_m_a" }], { inputs: [a] }), { cities, a: TRIANGLE })).toEqual({ cities: [10, 40, 20, 50] });
    for (const type of ["limit", "rank"]) {
      const step = type === "limit" ? { id: "x", type, source: "cities", n: 3 } : { id: "x", type, source: "cities" };
      expect(plan(flowOf([step, inside("x")], [{ key: "r", from: "in_x_a" }], { inputs: [a] }), { cities, a: TRIANGLE }), type).toEqual({ cities: null });
    }
    // a limit after the spatial filter: the filter still needs only the area's box
    const after = [inside("cities"), { id: "l", type: "limit", source: "in_cities_a", n: 3 }];
    expect(plan(flowOf(after, [{ key: "r", from: "l" }], { inputs: [a] }), { cities, a: TRIANGLE })).toEqual({ cities: [10, 40, 20, 50] });
  });

  it("needs the whole layer for a result read from it, an undeclared step, `disjoint`, or an omitted optional area", () => {
    const inputs = { cities, a: TRIANGLE };
    expect(
      plan(
        flowOf(
          [inside("cities")],
          [
            { key: "r", from: "in_cities_a" },
            { key: "all", from: "cities" },
          ],
          { inputs: [a] },
        ),
        inputs,
      ),
    ).toEqual({ cities: null });
    const buffered = [{ id: "b", type: "buffer", source: "cities", distance_km: 5 }, inside("b")];
    expect(plan(flowOf(buffered, [{ key: "r", from: "in_b_a" }], { inputs: [a] }), inputs)).toEqual({ cities: null });
    expect(plan(flowOf([inside("cities", "a", "disjoint")], [{ key: "r", from: "in_cities_a" }], { inputs: [a] }), inputs)).toEqual({ cities: null });
    const optional = flowOf([inside("cities")], [{ key: "r", from: "in_cities_a" }], { inputs: [{ ...a, optional: true }] });
    expect(plan(optional, { cities, a: null })).toEqual({ cities: null });
    expect(plan(optional, { cities, a: TRIANGLE })).toEqual({ cities: [10, 40, 20, 50] });
  });

  it("takes the smaller of two boxes that each hold what is needed, and the union over several readers", () => {
    const b = { name: "b", kind: "area" };
    const B = area([
      [11, 41],
      [13, 41],
      [13, 43],
    ]);
    const chained = [inside("cities", "b"), inside("in_cities_b", "a")];
    expect(plan(flowOf(chained, [{ key: "r", from: "in_in_cities_b_a" }], { inputs: [a, b] }), { cities, a: TRIANGLE, b: B })).toEqual({
      cities: [11, 41, 13, 43],
    });
    const C = area([
      [30, -5],
      [31, -5],
      [31, -4],
    ]);
    const two = [inside("cities", "a"), inside("cities", "b")];
    const results = [
      { key: "r1", from: "in_cities_a" },
      { key: "r2", from: "in_cities_b" },
    ];
    expect(plan(flowOf(two, results, { inputs: [a, b] }), { cities, a: TRIANGLE, b: C })).toEqual({ cities: [10, -5, 31, 50] });
    // a step nobody reads needs nothing
    expect(plan(flowOf(two, [results[0]!], { inputs: [a, b] }), { cities, a: TRIANGLE, b: C })).toEqual({ cities: [10, 40, 20, 50] });
  });

  it("clips and spatially joins within the area's box; a distance target within the source's box grown by max_km", () => {
    const clipped = [{ id: "c", type: "clip", source: "cities", by: "a" }];
    expect(plan(flowOf(clipped, [{ key: "r", from: "c" }], { inputs: [a] }), { cities, a: TRIANGLE })).toEqual({ cities: [10, 40, 20, 50] });
    const joined = [{ id: "j", type: "spatial_join", points: "cities", polygons: "a", aggregations: [{ op: "count", as: "n" }] }];
    expect(plan(flowOf(joined, [{ key: "r", from: "j" }], { inputs: [a] }), { cities, a: TRIANGLE })).toEqual({ cities: [10, 40, 20, 50] });
    // the source's extent: a layer file's bbox, here 0..1 E, 50..52 N; 111 km = 1°: 49..53 N, longitudes by 1 / cos(53°)
    const cos53 = 0.6018150231520483;
    const near = layerSource([pt(0, 50), pt(1, 52)]);
    for (const type of ["within_distance", "nearest", "distance_pairs"]) {
      const step = {
        id: "d",
        type,
        source: "near",
        target: "cities",
        max_km: { param: "km" },
        ...(type === "within_distance" ? { aggregations: [{ op: "count", as: "n" }] } : {}),
      };
      const doc = flowOf([step], [{ key: "r", kind: type === "distance_pairs" ? "table" : "layer", from: "d" }], {
        inputs: [{ name: "near", kind: "layer" }],
        parameters: [{ name: "km", type: "number" }],
      });
      const boxes = plan(doc, { cities, near }, { km: 111 });
      expect(boxes.near, type).toBeNull();
      expect(boxes.cities![0], type).toBeCloseTo(-1 / cos53, 12);
      expect(boxes.cities!.slice(1, 3), type).toEqual([49, 1 + 1 / cos53]);
      expect(boxes.cities![3], type).toBeCloseTo(53, 12);
      // a parameter that does not resolve: the run fails at the step; planning reads everything
      expect(plan(doc, { cities, near }, { km: -1 }), type).toEqual({ cities: null, near: null });
    }
  });

  it("filters by a layer within the source's extent, and the source within the layer's", () => {
    const countries = layerSource([pt(5, 5), pt(6, 7)]);
    const doc = flowOf([{ id: "in", type: "spatial_filter", source: "cities", by: "countries" }], [{ key: "r", from: "in" }], {
      inputs: [{ name: "countries", kind: "layer" }],
    });
    expect(plan(doc, { cities, countries })).toEqual({ cities: [5, 5, 6, 7], countries: [-170, -50, 170, 70] });
  });
});

describe("running on the planned boxes gives the results of the whole layers (real data)", () => {
  let cities: TFeature[];
  let countries: TFeature[];
  beforeAll(() => {
    // Real positions and shapes at a fraction of the cost: an eighth of the cities to sort and
    // join, countries with fewer vertices to clip (the demo's own layers are the bench's).
    cities = loadWorldCities().features.filter((_, i) => i % 8 === 0);
    countries = countries110m().features;
  });

  /** Runs `doc` on `inputs`, then on its layers cut to their planned boxes (plus every 997th item beyond: a reader may give more), and compares. */
  async function samePlanned(doc: unknown, inputs: TResolvedInputs, params: Record<string, unknown>): Promise<void> {
    const flow = mustValidate(doc);
    const all = applyParameterDefaults(flow, params);
    const boxes = planLayerBoxes(flow, inputs, all);
    const cut: TResolvedInputs = { ...inputs };
    for (const [name, box] of Object.entries(boxes)) {
      const features = (inputs[name] as { features: TFeature[] }).features;
      const kept = new Set(restrictToBox(features, box));
      cut[name] = layer(features.filter((f, i) => kept.has(f) || i % 997 === 0));
    }
    const expected = await runFlow(flow, inputs, all);
    expect(await runFlow(flow, cut, all)).toEqual(expected);
  }

  const jitter = (d: number) => fc.double({ min: -d, max: d, noNaN: true });
  /** A city's position: the first 200 cities often (what a limit keeps), any city otherwise. */
  const cityAt = fc
    .oneof(fc.integer({ min: 0, max: 199 }), fc.integer({ min: 0, max: 135_232 }))
    .map((i) => (cities[i % cities.length]!.geometry as { coordinates: number[] }).coordinates);
  const clamp = (v: number, m: number) => Math.max(-m, Math.min(m, v));
  /** A random quadrilateral of up to 20° a side around a city (clamped to the globe). */
  const randomArea = fc
    .tuple(cityAt, fc.double({ min: 0.1, max: 10, noNaN: true }), fc.array(jitter(0.4), { minLength: 8, maxLength: 8 }))
    .map(([[x, y], size, j]) => {
      const corners = [
        [-1, -1],
        [1, -1],
        [1, 1],
        [-1, 1],
      ].map(([dx, dy], i): [number, number] => [clamp(x! + (dx! + j[2 * i]!) * size, 180), clamp(y! + (dy! + j[2 * i + 1]!) * size, 90)]);
      return area(corners);
    });
  /** 1 to 8 places, each within a degree of a city. */
  const randomPlaces = fc
    .array(fc.tuple(fc.nat(), cityAt, jitter(1), jitter(1)), { minLength: 1, maxLength: 8 })
    .map((list) => places(list.map(([id, [x, y], dx, dy]) => ({ id, lon: clamp(x! + dx, 180), lat: clamp(y! + dy, 90) }))));

  it("Cities in area", async () => {
    await fc.assert(
      fc.asyncProperty(randomArea, fc.integer({ min: 0, max: 100_000 }), async (a, min) => {
        await samePlanned(CITIES_IN_AREA, { cities: layer(cities), area: a }, { min_population: min });
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it("Nearby cities", async () => {
    await fc.assert(
      fc.asyncProperty(randomPlaces, fc.double({ min: 1, max: 500, noNaN: true }), fc.integer({ min: 0, max: 50_000 }), async (p, km, min) => {
        await samePlanned(NEARBY_CITIES, { places: p, cities: layer(cities) }, { radius_km: km, min_population: min });
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it("Population by country", async () => {
    // the countries' box holds nearly every city; those meeting a random area make it small
    await fc.assert(
      fc.asyncProperty(randomArea, fc.integer({ min: 0, max: 100_000 }), async (a, min) => {
        const some = restrictToBox(countries, featuresBox([{ type: "Feature", geometry: a.geometry, properties: {} }]));
        await samePlanned(POPULATION_BY_COUNTRY, { cities: layer(cities), countries: layer(some) }, { min_population: min, top: 3 });
      }),
      { numRuns: 4 },
    );
  }, 120_000);

  /** Hand-made flows over cities, countries, areas a and b, places, and parameters predicate, km, n. */
  const HAND_MADE: Record<string, { steps: unknown[]; results: { key: string; kind: "layer" | "table"; from: string }[] }> = {
    "sort, limit and rank around a spatial filter": {
      steps: [
        { id: "by_pop", type: "sort", source: "cities", field: "population", order: "desc" },
        { id: "in_a", type: "spatial_filter", source: "by_pop", by: "a" },
        { id: "top", type: "limit", source: "in_a", n: { param: "n" } },
        { id: "ranked", type: "rank", source: "top" },
        { id: "first", type: "limit", source: "cities", n: { param: "n" } },
        { id: "first_in_a", type: "spatial_filter", source: "first", by: "a" },
      ],
      results: [
        { key: "ranked", kind: "layer", from: "ranked" },
        { key: "first_in_a", kind: "layer", from: "first_in_a" },
      ],
    },
    "spatial filters and clips of polygons": {
      steps: [
        { id: "lands", type: "spatial_filter", source: "countries", by: "b", predicate: { param: "predicate" } },
        { id: "cut", type: "clip", source: "countries", by: "b" },
        { id: "cut_area", type: "area", source: "cut" },
      ],
      results: [
        { key: "lands", kind: "layer", from: "lands" },
        { key: "cut", kind: "layer", from: "cut_area" },
      ],
    },
    "spatial join into an area": {
      steps: [
        {
          id: "in_a",
          type: "spatial_join",
          points: "cities",
          polygons: "a",
          aggregations: [
            { op: "count", as: "n" },
            { op: "sum", field: "population", as: "pop" },
          ],
        },
      ],
      results: [{ key: "in_a", kind: "layer", from: "in_a" }],
    },
    "union of spatial filters": {
      steps: [
        { id: "in_b", type: "spatial_filter", source: "cities", by: "b" },
        { id: "in_b_a", type: "spatial_filter", source: "cities", by: "a" },
        { id: "both", type: "union", sources: ["in_b", "in_b_a"] },
        { id: "both_in_a", type: "spatial_filter", source: "both", by: "a" },
      ],
      results: [{ key: "both_in_a", kind: "layer", from: "both_in_a" }],
    },
    "distance steps": {
      steps: [
        { id: "points", type: "points_from_rows", source: "places", lon: "lon", lat: "lat" },
        { id: "city_in_a", type: "spatial_filter", source: "cities", by: "a" },
        { id: "around", type: "within_distance", source: "points", target: "city_in_a", max_km: { param: "km" }, aggregations: [{ op: "count", as: "n" }] },
        { id: "closest", type: "nearest", source: "around", target: "cities", max_km: { param: "km" }, fields: ["name"] },
        { id: "pairs", type: "distance_pairs", source: "points", target: "cities", max_km: { param: "km" }, target_fields: ["name"] },
      ],
      results: [
        { key: "closest", kind: "layer", from: "closest" },
        { key: "pairs", kind: "table", from: "pairs" },
      ],
    },
  };

  it.each(Object.keys(HAND_MADE))(
    "hand-made flow: %s",
    async (name) => {
      const { steps, results } = HAND_MADE[name]!;
      const used = JSON.stringify(steps);
      const inputs = [
        { name: "cities", kind: "layer" },
        { name: "countries", kind: "layer" },
        { name: "a", kind: "area" },
        { name: "b", kind: "area" },
        { name: "places", kind: "table" },
      ].filter((i) => used.includes(`"${i.name}"`));
      const doc = {
        inputs,
        parameters: [
          { name: "predicate", type: "enum", values: ["intersects", "within", "contains", "disjoint"] },
          { name: "km", type: "number" },
          { name: "n", type: "integer" },
        ],
        steps,
        results,
      };
      const predicate = fc.constantFrom("intersects", "within", "contains", "disjoint");
      await fc.assert(
        fc.asyncProperty(
          randomArea,
          randomArea,
          randomPlaces,
          predicate,
          fc.double({ min: 1, max: 300, noNaN: true }),
          fc.integer({ min: 0, max: 200 }),
          async (a, b, p, pr, km, n) => {
            const all: TResolvedInputs = { cities: layer(cities), countries: layer(countries), a, b, places: p };
            await samePlanned(doc, Object.fromEntries(inputs.map((i) => [i.name, all[i.name]!])), { predicate: pr, km, n });
          },
        ),
        { numRuns: 8 },
      );
    },
    300_000,
  );

  it("plans a box smaller than the world for these flows (the test is not vacuous)", () => {
    const box = planLayerBoxes(mustValidate(CITIES_IN_AREA), { cities: layer(cities), area: TRIANGLE }, { min_population: 0 }).cities as TBox;
    expect(restrictToBox(cities, box).length).toBeLessThan(cities.length / 4);
  });
});
