/**
 * How runs behave around the engine, over HTTP with flows published by the tests themselves:
 * every input form with every kind it fits (layer_id for layers and tables, geojson, rows,
 * area, null for an optional input), a failing step, progress while running, and a cancel that
 * stops the worker inside a long step.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Polygon } from "geojson";
import { loadWorldCapitals } from "@/lib/demo/real-data";
import { tableRows } from "@/lib/steps/dataset";
import { apiPath, citiesInPolygon, http, pollRun, referenceCities, resetRuns } from "./helpers";
import { jobOfRun, layerFiles, postRun, publishTestApi, tableFiles } from "./engine-helpers";

/** Cities (layer) and places (table) merged into one layer, optionally cut to an area. */
const INPUTS_FLOW = {
  inputs: [
    { name: "cities", kind: "layer" },
    { name: "places", kind: "table" },
    { name: "area", kind: "area", optional: true, description: "Omit or send null for no restriction" },
  ],
  parameters: [{ name: "min_population", type: "integer", minimum: 0, default: 0 }],
  steps: [
    { id: "big", type: "filter", source: "cities", where: [">=", ["to-number", ["get", "population"], 0], ["var", "min_population"]] },
    {
      id: "city_points",
      type: "select",
      source: "big",
      fields: [
        { from: "name", as: "label" },
        { from: "population", as: "size" },
      ],
    },
    { id: "place_points", type: "points_from_rows", source: "places", lon: "lon", lat: "lat" },
    { id: "place_fields", type: "select", source: "place_points", fields: [{ from: "name", as: "label" }] },
    { id: "all", type: "union", sources: ["city_points", "place_fields"] },
    { id: "inside", type: "spatial_filter", source: "all", by: "area", predicate: "intersects" },
    { id: "rows", type: "to_table", source: "inside" },
  ],
  results: [
    { key: "points", kind: "layer", from: "inside" },
    { key: "labels", kind: "table", from: "rows" },
  ],
};

/** A step that fails on a parameter value: `limit` needs n >= 0, the parameter allows any integer. */
const FAILING_FLOW = {
  inputs: [{ name: "places", kind: "table" }],
  parameters: [{ name: "n", type: "integer", default: 1 }],
  steps: [
    { id: "first", type: "sort", source: "places", field: "id" },
    { id: "cut_off", type: "limit", source: "first", n: { param: "n" } },
  ],
  results: [{ key: "kept", kind: "table", from: "cut_off" }],
};

/** Long but light on memory: for every city, the cities within 500 km (about 10^9 distance tests). */
const SLOW_FLOW = {
  inputs: [{ name: "cities", kind: "layer" }],
  steps: [
    { id: "all", type: "filter", source: "cities", where: true },
    { id: "dense", type: "within_distance", source: "all", target: "all", max_km: 500, aggregations: [{ op: "count", as: "neighbours" }] },
    { id: "out", type: "select", source: "dense", fields: ["name", "neighbours"] },
  ],
  results: [{ key: "density", kind: "layer", from: "out" }],
};

const AREA: Polygon = {
  type: "Polygon",
  coordinates: [
    [
      [5.9, 45.8],
      [10.5, 45.8],
      [10.5, 47.8],
      [5.9, 47.8],
      [5.9, 45.8],
    ],
  ],
};

beforeAll(async () => {
  await publishTestApi("engine-inputs", INPUTS_FLOW);
  await publishTestApi("engine-fails", FAILING_FLOW);
  await publishTestApi("engine-slow", SLOW_FLOW);
});
beforeEach(resetRuns);

async function run(api: string, body: object): Promise<any> {
  const r = await postRun(api, { ...body, wait_seconds: 60 });
  expect(r.status, r.text).toBe(200);
  return r.body;
}

describe("input forms", () => {
  const caller = {
    cities: {
      geojson: {
        type: "FeatureCollection",
        features: [
          { type: "Feature", geometry: { type: "Point", coordinates: [8.54, 47.37] }, properties: { name: "Zürich HB", population: 400000 } },
          { type: "Feature", geometry: { type: "Point", coordinates: [2.35, 48.85] }, properties: { name: "Paris", population: 2100000 } },
          { type: "Feature", geometry: null, properties: { name: "nowhere", population: 1 } },
        ],
      },
    },
    places: {
      rows: [
        { name: "Büro 1", lon: 7.45, lat: 46.95 },
        { name: "bad row", lon: "x", lat: 1 },
      ],
    },
  };

  it("geojson (layer) + rows (table) + area (area)", async () => {
    const r = await run("engine-inputs", { inputs: { ...caller, area: { area: AREA } } });
    expect(r.state, JSON.stringify(r.error)).toBe("completed");
    const files = await layerFiles(r, "points");
    expect(files.geojson.map((f) => f.properties)).toEqual([{ label: "Zürich HB", size: 400000 }, { label: "Büro 1" }]);
    expect(files.geoparquet.map((f) => f.properties)).toEqual([
      { label: "Zürich HB", size: 400000 },
      { label: "Büro 1", size: null },
    ]);
  });

  it("null for the optional area keeps everything, including null geometry", async () => {
    const r = await run("engine-inputs", { inputs: { ...caller, area: null } });
    expect(r.state, JSON.stringify(r.error)).toBe("completed");
    const files = await layerFiles(r, "points");
    expect(files.geojson.map((f) => f.properties.label)).toEqual(["Zürich HB", "Paris", "nowhere", "Büro 1", "bad row"]);
    expect(files.geojson.map((f) => f.geometry?.type ?? null)).toEqual(["Point", "Point", null, "Point", null]);
    expect(files.geoparquet.map((f) => f.geometry?.type ?? null)).toEqual(["Point", "Point", null, "Point", null]);
    expect(files.geo.columns.geometry.geometry_types).toEqual(["Point"]);
    const table = await tableFiles(r, "labels");
    expect(table.csvHeader).toEqual(["label", "size"]);
    expect(table.csv.map((row) => row.size)).toEqual(["400000", "2100000", "1", "", ""]);
    expect(table.parquet.map((row) => row.size)).toEqual([400000, 2100000, 1, null, null]);
  });

  it("layer_id for a layer input and for a table input, and an omitted optional input", async () => {
    const r = await run("engine-inputs", {
      inputs: { cities: { layer_id: "world-cities" }, places: { layer_id: "world-capitals" } },
      parameters: { min_population: 10000 },
    });
    expect(r.state, JSON.stringify(r.error)).toBe("completed");
    const bigCities = referenceCities().filter((c) => (c.properties.population as number) >= 10000);
    const capitals = tableRows(loadWorldCapitals());
    expect(r.results.find((x: any) => x.key === "points").feature_count).toBe(bigCities.length + capitals.length);
    const table = await tableFiles(r, "labels");
    expect(table.parquet.slice(-capitals.length).map((row) => row.label)).toEqual(capitals.map((c) => c.name));
  });

  it("layer_id with an area: the same cities as a plain point-in-polygon loop", async () => {
    const r = await run("engine-inputs", {
      inputs: { cities: { layer_id: "world-cities" }, places: { rows: [] }, area: { area: AREA } },
      parameters: { min_population: 20000 },
    });
    const want = citiesInPolygon(AREA, 20000).map((c) => c.properties.name);
    const files = await layerFiles(r, "points");
    expect(files.geoparquet.map((f) => f.properties.label)).toEqual(want);
  });

  it("refuses rows for a layer input, geojson for a table input and null for a required input (422)", async () => {
    const r = await http("POST", `${apiPath("engine-inputs")}/runs`, {
      body: { inputs: { cities: { rows: [] }, places: caller.cities, area: null } },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: any) => e.field).sort()).toEqual(["/inputs/cities", "/inputs/places"]);
    const n = await http("POST", `${apiPath("engine-inputs")}/runs`, { body: { inputs: { cities: null, places: { rows: [] } } } });
    expect(n.status).toBe(422);
    expect(n.body.errors.map((e: any) => e.field)).toEqual(["/inputs/cities"]);
  });
});

describe("a failing step", () => {
  it("fails the run with an error naming the step and the cause", async () => {
    const r = await run("engine-fails", { inputs: { places: { rows: [{ id: 2 }, { id: 1 }] } }, parameters: { n: -1 } });
    expect(r.state).toBe("failed");
    expect(r.error).toMatchObject({ code: "step_failed", step: "cut_off" });
    expect(r.error.message).toMatch(/cut_off/);
    expect(r.error.message).toMatch(/\/n/);
    expect(r.results).toBeUndefined();
    expect((await http("GET", `${r.links.self}/results/kept`)).status).toBe(409);
    // The same flow with a good value completes.
    const ok = await run("engine-fails", { inputs: { places: { rows: [{ id: 2 }, { id: 1 }] } }, parameters: { n: 1 } });
    expect(ok.state).toBe("completed");
    expect((await tableFiles(ok, "kept")).parquet).toEqual([{ id: 1 }]);
  });
});

describe("progress and cancel", () => {
  it("shows progress while running, and a cancel stops the worker inside a long step within a second", async () => {
    const started = await http("POST", `${apiPath("engine-slow")}/runs`, { body: { inputs: { cities: { layer_id: "world-cities" } } } });
    expect(started.status).toBe(202);
    const self = started.body.links.self;

    // Wait until the run is inside the long step: 1 of 3 steps done.
    let doc: any;
    const deadline = Date.now() + 30_000;
    for (;;) {
      doc = (await http("GET", self)).body;
      if (doc.state === "running" && doc.progress.steps_done >= 1) break;
      expect(Date.now(), `run did not reach the long step: ${JSON.stringify(doc)}`).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(doc.progress).toEqual({ steps_done: 1, steps_total: 3 });

    const cancelAt = Date.now();
    const c = await http("POST", `${self}/cancel`);
    expect(c.status).toBe(200);
    expect(c.body.state).toBe("cancelled");

    // The worker's job ends (the handler returned) within a second of the cancel.
    let job = await jobOfRun(started.body.run_id);
    while (!job?.completedOn && Date.now() - cancelAt < 5_000) {
      await new Promise((r) => setTimeout(r, 25));
      job = await jobOfRun(started.body.run_id);
    }
    expect(job?.state).toBe("completed");
    const stoppedAfter = Date.now() - cancelAt;
    expect(stoppedAfter).toBeLessThan(1_000);

    // The run stays cancelled, and the worker takes the next run at once.
    const next = await run("engine-fails", { inputs: { places: { rows: [{ id: 1 }] } } });
    expect(next.state).toBe("completed");
    expect(Date.parse(next.finished_at) - cancelAt).toBeLessThan(3_000);
    const final = await pollRun(self);
    expect(final.state).toBe("cancelled");
    expect(final.results).toBeUndefined();
  });
});
