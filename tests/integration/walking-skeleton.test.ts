/**
 * The walking skeleton end to end over real HTTP on the real data: the two demo APIs,
 * their result files, and the basic rules of the contract (keys, visibility, validation,
 * idempotency, metering). Expected values are computed here with plain loops.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Polygon } from "geojson";
import {
  apiPath,
  citiesInPolygon,
  SWISS_AREA,
  demoUsage,
  download,
  http,
  OTHER_KEY,
  parseCsv,
  pollRun,
  referenceCountries,
  resetRuns,
  runCount,
} from "./helpers";

const AREA = SWISS_AREA;
const CITIES_IN_AREA = apiPath("cities-in-area");
const COUNTRY_STATS = apiPath("country-stats");

beforeEach(resetRuns);

describe("health", () => {
  it("reports database and worker up", async () => {
    const r = await http("GET", "/api/health", { key: null });
    expect(r.status).toBe(200);
    expect(r.body.database.ok).toBe(true);
    expect(r.body.worker.ok).toBe(true);
  });
});

describe("cities-in-area", () => {
  it("answers 200 within wait_seconds with results that match a plain point-in-polygon loop", async () => {
    const body = { inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } }, parameters: { min_population: 10000 }, wait_seconds: 30 };
    const r = await http("POST", `${CITIES_IN_AREA}/runs`, { body });
    expect(r.status, r.text).toBe(200);
    expect(r.body.state).toBe("completed");
    expect(r.body.links.self).toBe(`${CITIES_IN_AREA}/runs/${r.body.run_id}`);
    expect(r.body.links.cancel).toBe(`${CITIES_IN_AREA}/runs/${r.body.run_id}/cancel`);

    const expected = citiesInPolygon(AREA, 10000);
    expect(expected.length).toBeGreaterThan(50);
    const results = Object.fromEntries(r.body.results.map((x: any) => [x.key, x]));
    expect(results.cities).toMatchObject({ kind: "layer", format: "geojson", media_type: "application/geo+json", feature_count: expected.length });
    expect(results.summary).toMatchObject({ kind: "table", format: "csv", row_count: 1 });

    const geo = await download(results.cities.href);
    expect(geo.status).toBe(200);
    expect(geo.headers.get("content-type")).toBe("application/geo+json");
    expect(geo.headers.get("content-disposition")).toBe('attachment; filename="cities.geojson"');
    const fc = JSON.parse(geo.bytes.toString("utf8"));
    expect(fc.type).toBe("FeatureCollection");
    const got = new Set(fc.features.map((f: any) => f.properties.geonameid));
    expect(got).toEqual(new Set(expected.map((f) => f.properties.geonameid)));
    expect(Object.keys(fc.features[0].properties).sort()).toEqual(["country", "geonameid", "name", "population"]);

    const csv = await download(results.summary.href);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const [row] = parseCsv(csv.bytes);
    expect(Number(row!.city_count)).toBe(expected.length);
    expect(Number(row!.total_population)).toBe(expected.reduce((s, f) => s + (f.properties.population as number), 0));
  });

  it("applies the default min_population of 0", async () => {
    const r = await http("POST", `${CITIES_IN_AREA}/runs`, {
      body: { inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } }, wait_seconds: 30 },
    });
    expect(r.status, r.text).toBe(200);
    const cities = r.body.results.find((x: any) => x.key === "cities");
    expect(cities.feature_count).toBe(citiesInPolygon(AREA, 0).length);
  });
});

describe("country-stats", () => {
  it("answers 202 with Location, completes, and its ranking.csv matches a plain loop", async () => {
    const r = await http("POST", `${COUNTRY_STATS}/runs`, {
      body: { inputs: { cities: { layer_id: "world-cities" }, countries: { layer_id: "world-countries" } }, parameters: { top: 10, min_population: 1000 } },
    });
    expect(r.status, r.text).toBe(202);
    expect(r.body.state).toBe("queued");
    expect(r.headers.get("location")).toBe(r.body.links.self);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);

    const run = await pollRun(r.body.links.self);
    expect(run.state).toBe("completed");

    // Reference: every country, every city, bbox check then point-in-polygon; no index.
    const reference = referenceCountries().map((c) => {
      const inside = citiesInPolygon(c.geometry as Polygon, 1000);
      return { name: c.properties.name as string, count: inside.length, population: inside.reduce((s, f) => s + (f.properties.population as number), 0) };
    });
    reference.sort((a, b) => b.population - a.population);

    const ranking = run.results.find((x: any) => x.key === "ranking");
    const rows = parseCsv((await download(ranking.href)).bytes);
    expect(rows).toHaveLength(10);
    expect(Object.keys(rows[0]!)).toEqual(["rank", "name", "city_count", "city_population"]);
    rows.forEach((row, i) => {
      expect(Number(row.rank)).toBe(i + 1);
      expect(row.name).toBe(reference[i]!.name);
      expect(Number(row.city_count)).toBe(reference[i]!.count);
      expect(Number(row.city_population)).toBe(reference[i]!.population);
    });

    const countries = run.results.find((x: any) => x.key === "countries");
    expect(countries.feature_count).toBe(241);
    const fc = JSON.parse((await download(countries.href)).bytes.toString("utf8"));
    const byName = new Map(fc.features.map((f: any) => [f.properties.name, f.properties]));
    for (const ref of reference) {
      expect(byName.get(ref.name), ref.name).toMatchObject({ city_count: ref.count, city_population: ref.population });
    }
  });
});

describe("contract basics", () => {
  const body = { inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } }, parameters: { min_population: 500000 } };

  it("answers 401 without a key or with a bad one, 404 for an unknown API, and counts nothing", async () => {
    expect((await http("POST", `${CITIES_IN_AREA}/runs`, { key: null, body })).status).toBe(401);
    const bad = await http("POST", `${CITIES_IN_AREA}/runs`, { key: "fapi_" + "x".repeat(32), body });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("content-type")).toBe("application/problem+json");
    expect((await http("POST", `${apiPath("no-such-api")}/runs`, { body })).status).toBe(404);
    expect(await runCount()).toBe(0);
    expect(await demoUsage()).toEqual({ etlRuns: 0, processingMs: 0, apiRequests: 0 });
  });

  it("answers 422 naming every faulty field, starts no run and counts nothing", async () => {
    const r = await http("POST", `${CITIES_IN_AREA}/runs`, {
      body: {
        inputs: {
          cities: { layer_id: "no-such-layer" },
          area: {
            area: {
              type: "Polygon",
              coordinates: [
                [
                  [0, 0],
                  [1, 0],
                  [1, 1],
                ],
              ],
            },
          },
          extra: null,
        },
        parameters: { min_population: -5 },
        wait_seconds: 61,
      },
    });
    expect(r.status, r.text).toBe(422);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body).toMatchObject({ status: 422, type: expect.stringMatching(/^https?:\/\//), title: expect.any(String) });
    const fields: string[] = r.body.errors.map((e: any) => e.field);
    expect(fields.some((f) => f.startsWith("/inputs/area"))).toBe(true);
    expect(fields).toContain("/parameters/min_population");
    expect(fields).toContain("/wait_seconds");
    expect(fields.some((f) => f.startsWith("/inputs/extra") || f === "/inputs")).toBe(true);
    expect(await runCount()).toBe(0);
    expect(await demoUsage()).toEqual({ etlRuns: 0, processingMs: 0, apiRequests: 0 });
  });

  it("answers 422 for a layer the environment cannot read", async () => {
    const r = await http("POST", `${CITIES_IN_AREA}/runs`, { body: { ...body, inputs: { ...body.inputs, cities: { layer_id: "secret-layer" } } } });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: any) => e.field)).toEqual(["/inputs/cities/layer_id"]);
  });

  it("hides a run from other consumers (404 on every run endpoint) and meters as the spec says", async () => {
    const created = await http("POST", `${CITIES_IN_AREA}/runs`, { body: { ...body, wait_seconds: 30 } });
    expect(created.status, created.text).toBe(200);
    const self = created.body.links.self;
    expect(await demoUsage()).toMatchObject({ etlRuns: 1, apiRequests: 1 });

    const otherGet = await http("GET", self, { key: OTHER_KEY });
    expect(otherGet.status).toBe(404);
    const missing = await http("GET", self.replace(/[0-9a-f]{12}$/, "000000000000"), { key: OTHER_KEY });
    expect(missing.status).toBe(404);
    expect(otherGet.body.title).toBe(missing.body.title);
    expect((await http("POST", `${self}/cancel`, { key: OTHER_KEY })).status).toBe(404);
    expect((await http("GET", created.body.results[0].href, { key: OTHER_KEY })).status).toBe(404);

    expect((await http("GET", self)).status).toBe(200);
    const cancel = await http("POST", `${self}/cancel`);
    expect(cancel.status).toBe(409);
    const usage = await demoUsage();
    expect(usage.etlRuns).toBe(1);
    expect(usage.apiRequests).toBe(2); // POST + the owner's GET; refused calls count nothing
    expect(usage.processingMs).toBeGreaterThanOrEqual(0);
  });

  it("returns the same run for a repeated Idempotency-Key and refuses it for a different body", async () => {
    const headers = { "idempotency-key": "test-key-1" };
    const first = await http("POST", `${CITIES_IN_AREA}/runs`, { body, headers });
    expect(first.status).toBe(202);
    const again = await http("POST", `${CITIES_IN_AREA}/runs`, { body: JSON.parse(JSON.stringify(body)), headers });
    expect([200, 202]).toContain(again.status);
    expect(again.body.run_id).toBe(first.body.run_id);
    expect(await runCount()).toBe(1);
    const different = await http("POST", `${CITIES_IN_AREA}/runs`, { body: { ...body, parameters: { min_population: 1 } }, headers });
    expect(different.status).toBe(422);
    expect(different.body.errors[0].field).toBe("/headers/Idempotency-Key");
    expect(await runCount()).toBe(1);
    expect((await demoUsage()).etlRuns).toBe(1);
    await pollRun(first.body.links.self);
  });

  it("cancels a queued or running run", async () => {
    const r = await http("POST", `${COUNTRY_STATS}/runs`, {
      body: { inputs: { cities: { layer_id: "world-cities" }, countries: { layer_id: "world-countries" } } },
    });
    expect(r.status).toBe(202);
    const c = await http("POST", `${r.body.links.self}/cancel`);
    // The run may already have finished on a fast machine; both answers are deliberate.
    expect([200, 409]).toContain(c.status);
    if (c.status === 200) {
      expect(c.body.state).toBe("cancelled");
      expect(c.body.results).toBeUndefined();
      const results = await http("GET", `${r.body.links.self}/results/ranking`);
      expect(results.status).toBe(409);
    }
  });
});
