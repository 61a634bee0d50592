/**
 * The three demo APIs over HTTP on the real data, every result in all four formats, against
 * independent reference computations (plain loops over all cities with Turf, no index, no
 * engine code). GeoJSON is read with JSON.parse, CSV with csv-parse, Parquet and GeoParquet
 * with hyparquet (geometry decoded by a WKB decoder of the tests, not the writer's).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { booleanClockwise, distance, rewind } from "@turf/turf";
import type { MultiPolygon, Polygon } from "geojson";
import { loadWorldCapitals } from "@/lib/demo/real-data";
import { tableRows } from "@/lib/steps/dataset";
import { apiPath, citiesInPolygon, http, referenceCities, referenceCountries, resetRuns } from "./helpers";
import { expectGeoMetadata, layerFiles, postRun, seededRandom, tableFiles } from "./engine-helpers";

beforeAll(resetRuns);

async function runToCompletion(api: string, body: object): Promise<any> {
  const r = await postRun(api, { ...body, wait_seconds: 60 });
  expect(r.status, r.text).toBe(200);
  expect(r.body.state, JSON.stringify(r.body.error)).toBe("completed");
  return r.body;
}

/** CSV text of a value as the writer must give it: numbers stay exact, null is empty. */
const csvText = (v: unknown) => (v === null || v === undefined ? "" : String(v));

describe("cities-in-area in all four formats", () => {
  // A concave polygon over the Alps; GeoNames positions on its edges count as inside.
  const AREA: Polygon = {
    type: "Polygon",
    coordinates: [
      [
        [5.9, 45.8],
        [10.5, 45.8],
        [10.5, 47.8],
        [8.2, 46.6],
        [5.9, 47.0],
        [5.9, 45.8],
      ],
    ],
  };
  const MIN = 5000;
  let run: any;
  const expected = () => citiesInPolygon(AREA, MIN);
  beforeAll(async () => {
    run = await runToCompletion("cities-in-area", {
      inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } },
      parameters: { min_population: MIN },
      formats: { cities: "geoparquet", summary: "parquet" },
    });
  });

  it("lists the requested formats", () => {
    const byKey = Object.fromEntries(run.results.map((r: any) => [r.key, r]));
    expect(byKey.cities).toMatchObject({ kind: "layer", format: "geoparquet", media_type: "application/vnd.apache.parquet", feature_count: expected().length });
    expect(byKey.summary).toMatchObject({ kind: "table", format: "parquet", media_type: "application/vnd.apache.parquet", row_count: 1 });
  });

  it("cities: GeoJSON and GeoParquet hold the reference cities with typed columns", async () => {
    const want = expected();
    expect(want.length).toBeGreaterThan(100);
    const files = await layerFiles(run, "cities");
    const wantProps = want.map((f) => f.properties);
    for (const got of [files.geojson, files.geoparquet]) {
      expect(got.map((f) => f.properties)).toEqual(wantProps);
      expect(got.map((f) => f.geometry)).toEqual(want.map((f) => f.geometry));
    }
    expect(files.types).toMatchObject({ geonameid: "INT64", name: "BYTE_ARRAY/UTF8", country: "BYTE_ARRAY/UTF8", population: "INT64" });
    expectGeoMetadata(files, ["Point"]);
  });

  it("summary: CSV and Parquet hold the same numbers", async () => {
    const want = expected();
    const total = want.reduce((s, f) => s + (f.properties.population as number), 0);
    const files = await tableFiles(run, "summary");
    expect(files.csvHeader).toEqual(["city_count", "total_population"]);
    expect(files.csv).toEqual([{ city_count: String(want.length), total_population: String(total) }]);
    expect(files.parquetColumns).toEqual(["city_count", "total_population"]);
    expect(files.parquet).toEqual([{ city_count: want.length, total_population: total }]);
    // Types derived from the flow: a count is an integer, a sum of the declared integer population too.
    expect(files.types).toMatchObject({ city_count: "INT64", total_population: "INT64" });
  });
});

describe("country-stats in all four formats", () => {
  const MIN = 1000;
  let run: any;
  let reference: { name: string; city_count: number; city_population: number }[];
  beforeAll(async () => {
    run = await runToCompletion("country-stats", {
      inputs: { cities: { layer_id: "world-cities" }, countries: { layer_id: "world-countries" } },
      parameters: { min_population: MIN, top: 250 },
    });
    reference = referenceCountries().map((c) => {
      const inside = citiesInPolygon(c.geometry as Polygon, MIN);
      return {
        name: c.properties.name as string,
        city_count: inside.length,
        city_population: inside.reduce((s, f) => s + (f.properties.population as number), 0),
      };
    });
  });

  it("countries: every country with its geometry and counts, in GeoJSON and GeoParquet", async () => {
    const files = await layerFiles(run, "countries");
    const countries = referenceCountries();
    for (const [format, got] of [
      ["geojson", files.geojson],
      ["geoparquet", files.geoparquet],
    ] as const) {
      expect(got).toHaveLength(241);
      expect(got.map((f) => f.properties)).toEqual(reference);
      // GeoJSON follows RFC 7946's right-hand rule (Turf rewind as the reference); GeoParquet keeps the source's rings.
      const expected = (i: number) => (format === "geojson" ? rewind(countries[i]!.geometry as Polygon) : countries[i]!.geometry);
      got.forEach((f, i) => expect(f.geometry, `${format} ${reference[i]!.name}`).toEqual(expected(i)));
    }
    const exteriors = files.geojson.flatMap((f) => {
      const g = f.geometry as Polygon | MultiPolygon;
      return (g.type === "Polygon" ? [g.coordinates] : g.coordinates).map((p) => p[0]!);
    });
    expect(exteriors.length).toBeGreaterThan(1000);
    expect(exteriors.filter((r: any) => booleanClockwise(r))).toEqual([]);
    expect(files.types).toMatchObject({ name: "BYTE_ARRAY/UTF8", city_count: "INT64", city_population: "INT64" });
    expectGeoMetadata(files, ["MultiPolygon", "Polygon"]);
  });

  it("ranking: all 241 countries by city population (stable order for ties), CSV and Parquet", async () => {
    const ranked = [...reference].sort((a, b) => b.city_population - a.city_population).map((r, i) => ({ rank: i + 1, ...r }));
    const files = await tableFiles(run, "ranking");
    expect(files.csvHeader).toEqual(["rank", "name", "city_count", "city_population"]);
    expect(files.csv).toEqual(ranked.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, csvText(v)]))));
    expect(files.parquet).toEqual(ranked);
    expect(files.types).toMatchObject({ rank: "INT64", name: "BYTE_ARRAY/UTF8", city_count: "INT64", city_population: "INT64" });
  });
});

describe("nearby-cities in all four formats", () => {
  const RADIUS = 30;
  const MIN = 1000;
  // Places near real cities (jittered), one in the open ocean, one at the antimeridian (Fiji),
  // one near the North Cape, with unicode and spaces in ids.
  const rand = seededRandom(42);
  const cities = () => referenceCities();
  const places: { id: string | number; lon: number; lat: number }[] = [];
  beforeAll(() => {
    const all = cities();
    for (let i = 0; i < 300; i++) {
      const c = all[Math.floor(rand() * all.length)]!;
      const [x, y] = (c.geometry as { coordinates: number[] }).coordinates as [number, number];
      places.push({
        id: `place ${i}`,
        lon: Math.max(-180, Math.min(180, x + (rand() - 0.5) * 0.6)),
        lat: Math.max(-90, Math.min(90, y + (rand() - 0.5) * 0.6)),
      });
    }
    places.push({ id: "Mid-Atlantic, nothing near", lon: -30, lat: -40 });
    places.push({ id: "Fidschi östlich", lon: 179.99, lat: -16.5 });
    places.push({ id: "Fidschi westlich", lon: -179.99, lat: -16.5 });
    places.push({ id: "Nordkapp ✓", lon: 25.78, lat: 71.17 });
  });

  /** Plain loop: every city, Turf haversine distance, nearest first (ties: data order). */
  function reference(ps: { id: unknown; lon: number; lat: number }[], radius: number, min: number) {
    const all = cities();
    return ps.map((p) => {
      const hits: { i: number; km: number }[] = [];
      for (let i = 0; i < all.length; i++) {
        const c = all[i]!;
        if ((c.properties.population as number) < min) continue;
        const km = distance([p.lon, p.lat], (c.geometry as { coordinates: number[] }).coordinates);
        if (km <= radius) hits.push({ i, km });
      }
      hits.sort((a, b) => a.km - b.km || a.i - b.i);
      const near = hits.map((h) => ({ city: all[h.i]!.properties, km: h.km }));
      return {
        place: {
          id: p.id,
          city_count: near.length,
          population_within: near.reduce((s, n) => s + (n.city.population as number), 0),
          nearest_city: near[0]?.city.name ?? null,
          nearest_km: near[0]?.km ?? null,
        },
        matches: near.map((n) => ({
          place_id: p.id,
          geonameid: n.city.geonameid,
          name: n.city.name,
          country: n.city.country,
          population: n.city.population,
          distance_km: n.km,
        })),
      };
    });
  }

  it("caller rows: places and matches equal a plain loop, in GeoJSON, GeoParquet, CSV and Parquet", async () => {
    const run = await runToCompletion("nearby-cities", {
      inputs: { places: { rows: places }, cities: { layer_id: "world-cities" } },
      parameters: { radius_km: RADIUS, min_population: MIN },
    });
    const ref = reference(places, RADIUS, MIN);
    expect(ref.filter((r) => r.place.city_count > 0).length).toBeGreaterThan(200);
    expect(ref.at(-4)!.place).toMatchObject({ city_count: 0, nearest_city: null, nearest_km: null });

    const layer = await layerFiles(run, "places");
    for (const got of [layer.geojson, layer.geoparquet]) {
      expect(got.map((f) => f.properties)).toEqual(ref.map((r) => r.place));
      expect(got.map((f) => f.geometry)).toEqual(places.map((p) => ({ type: "Point", coordinates: [p.lon, p.lat] })));
    }
    expect(layer.types).toMatchObject({
      id: "BYTE_ARRAY/UTF8",
      city_count: "INT64",
      population_within: "INT64",
      nearest_city: "BYTE_ARRAY/UTF8",
      nearest_km: "DOUBLE",
    });
    expectGeoMetadata(layer, ["Point"]);

    const matches = ref.flatMap((r) => r.matches);
    const table = await tableFiles(run, "matches");
    expect(table.csvHeader).toEqual(["place_id", "geonameid", "name", "country", "population", "distance_km"]);
    expect(table.parquetColumns).toEqual(table.csvHeader);
    expect(table.parquet).toEqual(matches);
    expect(table.csv).toEqual(matches.map((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, csvText(v)]))));
    expect(table.types).toMatchObject({ place_id: "BYTE_ARRAY/UTF8", geonameid: "INT64", name: "BYTE_ARRAY/UTF8", population: "INT64", distance_km: "DOUBLE" });
  });

  it("a table layer as places ({layer_id: world-capitals}) with default parameters", async () => {
    const run = await runToCompletion("nearby-cities", { inputs: { places: { layer_id: "world-capitals" }, cities: { layer_id: "world-cities" } } });
    const capitals = tableRows(loadWorldCapitals()) as { id: number; lon: number; lat: number }[];
    expect(capitals).toHaveLength(241);
    const ref = reference(capitals, 25, 0);
    const layer = await layerFiles(run, "places");
    expect(layer.geojson.map((f) => f.properties)).toEqual(ref.map((r) => r.place));
    expect(layer.types.id).toBe("INT64");
    // Every capital is itself a city of the layer, so each finds at least itself at distance 0.
    expect(ref.every((r) => r.place.city_count >= 1 && r.place.nearest_km === 0)).toBe(true);
    const table = await tableFiles(run, "matches");
    expect(table.parquet).toEqual(ref.flatMap((r) => r.matches));
  });

  it("finds cities across the antimeridian, in both directions", async () => {
    const across = [
      { id: "Chukotka, east of the line", lon: 179.99, lat: 66.32 },
      { id: "Fiji, west of the line", lon: -179.99, lat: -16.43 },
    ];
    const run = await runToCompletion("nearby-cities", {
      inputs: { places: { rows: across }, cities: { layer_id: "world-cities" } },
      parameters: { radius_km: 100, min_population: 1000 },
    });
    const ref = reference(across, 100, 1000);
    expect(ref.map((r) => r.place.nearest_city)).toEqual(["Egvekinot", "Labasa"]); // at -179.12° and 179.36°
    const table = await tableFiles(run, "matches");
    expect(table.parquet).toEqual(ref.flatMap((r) => r.matches));
    expect((await layerFiles(run, "places")).geoparquet.map((f) => f.properties)).toEqual(ref.map((r) => r.place));
  });

  it("refuses a radius outside (0, 500] and a table layer for a layer input", async () => {
    const bad = await http("POST", `${apiPath("nearby-cities")}/runs`, {
      body: { inputs: { places: { rows: [{ id: 1, lon: 0, lat: 0 }] }, cities: { layer_id: "world-cities" } }, parameters: { radius_km: 0 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(["/parameters/radius_km"]);
    const table = await http("POST", `${apiPath("nearby-cities")}/runs`, {
      body: { inputs: { places: { rows: [{ id: 1, lon: 0, lat: 0 }] }, cities: { layer_id: "world-capitals" } } },
    });
    expect(table.status).toBe(422);
    expect(table.body.errors.map((e: any) => e.field)).toEqual(["/inputs/cities/layer_id"]);
    const big = await http("POST", `${apiPath("nearby-cities")}/runs`, {
      body: { inputs: { places: { rows: [] }, cities: { layer_id: "world-cities" } }, parameters: { radius_km: 500.5 } },
    });
    expect(big.status).toBe(422);
  });
});
