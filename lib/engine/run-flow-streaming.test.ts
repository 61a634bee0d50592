/**
 * runFlow over layers read from files (`TLayerSource`): the same results as over the layers in
 * memory, for every demo flow on real data; chains of batch steps stream (a group of the file is
 * processed before the next one is read); item limits, cancellation, read errors and tables.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Polygon } from "geojson";
import { applyParameterDefaults } from "@/lib/flows/run-request";
import { CITIES_IN_AREA, NEARBY_CITIES, POPULATION_BY_COUNTRY } from "@/lib/demo/flows";
import { loadWorldCapitals, loadWorldCities, loadWorldCountries } from "@/lib/demo/real-data";
import { StepError } from "@/lib/engine/errors";
import { runFlow } from "@/lib/engine/run-flow";
import type { TFeature, TLayerSource, TResolvedInputs, TRow } from "@/lib/engine/types";
import { setItemPosition } from "@/lib/steps/dataset";
import { box, layerSource, mustValidate, pt } from "@/lib/steps/test-helpers";
import { tableFromRows, tableRows, type TTable } from "@/lib/steps/dataset";

const layer = (features: TFeature[]) => ({ kind: "features" as const, features });
const area = (ring: [number, number][]) => ({ kind: "area" as const, geometry: { type: "Polygon", coordinates: [[...ring, ring[0]!]] } as Polygon });

/** Runs `doc` on `inMemory` and on `fromFiles` (defaults applied), checks equal results and progress, and returns the streamed results. */
async function sameResults(doc: unknown, inMemory: TResolvedInputs, fromFiles: TResolvedInputs, params: Record<string, unknown> = {}) {
  const flow = mustValidate(doc);
  const all = applyParameterDefaults(flow, params);
  const progress: [number[], number[]] = [[], []];
  const expected = await runFlow(flow, inMemory, all, { onProgress: (d) => progress[0].push(d) });
  const streamed = await runFlow(flow, fromFiles, all, { onProgress: (d) => progress[1].push(d) });
  expect(streamed).toEqual(expected);
  expect(progress[1]).toEqual(progress[0]);
  return streamed;
}

describe("demo flows over layer files give the results of the layers in memory (real data)", () => {
  let cities: TFeature[];
  let countries: TFeature[];
  beforeAll(() => {
    // Every 4th city: real positions at a quarter of the cost (the bench runs them all).
    cities = loadWorldCities().features.filter((_, i) => i % 4 === 0);
    countries = loadWorldCountries().features;
  });

  it.each([
    ["the Alps", [5, 44], [17, 44], [17, 49], [5, 49]],
    ["a triangle over India", [68, 8], [90, 22], [72, 34]],
    ["half the globe", [-179, -80], [0, -80], [0, 80], [-179, 80]],
  ] as [string, ...[number, number][]][])(
    "Cities in area: %s",
    async (_name, ...ring) => {
      for (const min of [0, 50_000]) {
        const file = layerSource(cities);
        const [found] = await sameResults(
          CITIES_IN_AREA,
          { cities: layer(cities), area: area(ring) },
          { cities: file, area: area(ring) },
          { min_population: min },
        );
        expect((found!.data as { features: unknown[] }).features.length).toBeGreaterThan(0);
        // one pass over the file, within the area's box
        expect(file.reads).toHaveLength(1);
        expect(file.reads[0]).toEqual([
          Math.min(...ring.map((p) => p[0])),
          Math.min(...ring.map((p) => p[1])),
          Math.max(...ring.map((p) => p[0])),
          Math.max(...ring.map((p) => p[1])),
        ]);
      }
    },
    60_000,
  );

  it("Population by country", async () => {
    const cityFile = layerSource(cities);
    const countryFile = layerSource(countries, { groupSize: 20 });
    await sameResults(
      POPULATION_BY_COUNTRY,
      { cities: layer(cities), countries: layer(countries) },
      { cities: cityFile, countries: countryFile },
      { min_population: 10_000, top: 5 },
    );
    expect([cityFile.reads.length, countryFile.reads.length]).toEqual([1, 1]);
  }, 60_000);

  it.each([30, 300])(
    "Nearby cities, %i km around the capitals",
    async (km) => {
      const file = layerSource(cities);
      const capitals = loadWorldCapitals();
      await sameResults(
        NEARBY_CITIES,
        { places: capitals, cities: layer(cities) },
        { places: capitals, cities: file },
        { radius_km: km, min_population: 1000 },
      );
      expect(file.reads).toHaveLength(1); // `big` is read whole by three steps: read once
    },
    60_000,
  );
});

/**
 * A layer file whose groups are made as they are read: `size` points per group on a 10 x 10 degree
 * grid, whose `properties` count their reads. `readsBefore[k]`: property reads when group k was asked for.
 */
function generatedLayer(groups: number, size: number) {
  const counted = { reads: 0, passes: 0, readsBefore: [] as number[] };
  const source: TLayerSource = {
    kind: "layer-source",
    of: "features",
    itemCount: groups * size,
    bbox: [0, 0, 9.99, 9.99],
    async *batches() {
      counted.passes++;
      for (let k = 0; k < groups; k++) {
        counted.readsBefore.push(counted.reads);
        yield Array.from({ length: size }, (_, i) => {
          const n = k * size + i;
          const properties = { name: `p${n}`, population: n % 1000 };
          const f = { type: "Feature", geometry: { type: "Point", coordinates: [(n % 1000) / 100, Math.floor(n / 1000) / 100] } };
          return Object.defineProperty(f, "properties", { get: () => (counted.reads++, properties), enumerable: true }) as TFeature;
        });
      }
    },
  };
  return { source, counted };
}

describe("streaming", () => {
  const GROUPS = 30;
  const SIZE = 1000;
  /** Every feature of the groups before k had its properties read before group k was made: group by group, not read whole first. */
  const expectStreamed = (c: { passes: number; readsBefore: number[] }) => {
    expect(c.passes).toBe(1);
    expect(c.readsBefore).toHaveLength(GROUPS);
    c.readsBefore.forEach((reads, k) => expect(reads, `group ${k}`).toBeGreaterThanOrEqual(k * SIZE));
  };

  it("Population by country: the cities pass group by group through filter and spatial_join", async () => {
    const { source, counted } = generatedLayer(GROUPS, SIZE);
    const countries = layer([box(0, 0, 5, 0.15, { name: "south" }), box(5, 0, 10, 0.3, { name: "east" }), box(20, 20, 21, 21, { name: "away" })]);
    const flow = mustValidate(POPULATION_BY_COUNTRY);
    const [stats] = await runFlow(flow, { cities: source, countries }, applyParameterDefaults(flow, { min_population: 500 }));
    expectStreamed(counted);
    // by hand: point n at (n % 1000 / 100, floor(n / 1000) / 100), population n % 1000 >= 500 means x >= 5;
    // "south" (x <= 5, y <= 0.15) holds the x = 5 column for rows 0..15; "east" (x >= 5, y <= 0.3) all of x >= 5 for rows 0..29
    const east = { n: 500 * GROUPS, pop: (GROUPS * ((500 + 999) * 500)) / 2 };
    expect((stats!.data as { features: TFeature[] }).features.map((f) => f.properties)).toEqual([
      { name: "south", city_count: 16, city_population: 16 * 500 },
      { name: "east", city_count: east.n, city_population: east.pop },
      { name: "away", city_count: 0, city_population: 0 },
    ]);
  });

  it("Cities in area: the cities pass group by group through filter, spatial_filter and select; only those inside are kept", async () => {
    const { source, counted } = generatedLayer(GROUPS, SIZE);
    const flow = mustValidate(CITIES_IN_AREA);
    const inArea = area([
      [1, 0],
      [1.995, 0],
      [1.995, 1],
      [1, 1],
    ]);
    const [found, summary] = await runFlow(flow, { cities: source, area: inArea }, applyParameterDefaults(flow, {}));
    expectStreamed(counted);
    // x in 1..1.99 (100 columns) for every row 0..29
    expect((found!.data as { features: unknown[] }).features).toHaveLength(100 * GROUPS);
    expect(tableRows(summary!.data as TTable)).toEqual([{ city_count: 100 * GROUPS, total_population: (GROUPS * ((100 + 199) * 100)) / 2 }]);
  });

  it("reads nothing for a lazy step nobody reads, and once per reader for a dataset only read batch by batch", async () => {
    const points = [pt(0, 0, { v: 1 }), pt(1, 1, { v: 2 }), pt(2, 2, { v: 3 })];
    const doc = {
      inputs: [{ name: "c", kind: "layer" }],
      steps: [
        { id: "f", type: "filter", source: "c", where: [">", ["get", "v"], 1] },
        { id: "n", type: "aggregate", source: "f", aggregations: [{ op: "count", as: "n" }] },
        { id: "s", type: "aggregate", source: "f", aggregations: [{ op: "sum", field: "v", as: "s" }] },
        { id: "unused", type: "filter", source: "c", where: true },
      ],
      results: [
        { key: "n", kind: "table", from: "n" },
        { key: "s", kind: "table", from: "s" },
      ],
    };
    const file = layerSource(points, { groupSize: 2 });
    const [n, s] = await sameResults(doc, { c: layer(points) }, { c: file });
    expect([tableRows(n!.data as TTable), tableRows(s!.data as TTable)]).toEqual([[{ n: 2 }], [{ s: 5 }]]);
    expect(file.reads).toHaveLength(2);
    const unread = layerSource(points);
    await runFlow(mustValidate({ ...doc, steps: [doc.steps[3]], results: [{ key: "r", kind: "layer", from: "c" }] }), { c: layerSource(points) }, {});
    await runFlow(
      mustValidate({ ...doc, inputs: [...doc.inputs, { name: "t", kind: "table" }], steps: [doc.steps[3]], results: [{ key: "r", kind: "table", from: "t" }] }),
      { c: unread, t: tableFromRows([], []) },
      {},
    );
    expect(unread.reads).toHaveLength(0);
  });

  it("limits what a run holds: a lazy step over the limit fails naming it when it is materialised, not while it streams into an aggregate", async () => {
    const points = Array.from({ length: 5000 }, (_, i) => pt(i / 1000, 0, { i }));
    const streaming = mustValidate({
      inputs: [{ name: "c", kind: "layer" }],
      steps: [
        { id: "f", type: "filter", source: "c", where: true },
        { id: "a", type: "aggregate", source: "f", aggregations: [{ op: "count", as: "n" }] },
      ],
      results: [{ key: "r", kind: "table", from: "a" }],
    });
    // The filter's 5,000 items stream into the count: nothing is held, so a limit of 4,999 holds.
    const [counted] = await runFlow(streaming, { c: layerSource(points) }, {}, { maxItems: 4999 });
    expect(counted!.kind === "table" && tableRows(counted!.data)).toEqual([{ n: 5000 }]);
    // Read whole (a result), the same step holds its items: over the limit it fails naming it, as in memory.
    const holding = mustValidate({
      inputs: [{ name: "c", kind: "layer" }],
      steps: [{ id: "f", type: "filter", source: "c", where: true }],
      results: [{ key: "r", kind: "layer", from: "f" }],
    });
    const inMemory = await runFlow(holding, { c: layer(points) }, {}, { maxItems: 4999 }).catch((e) => e);
    const streamed = await runFlow(holding, { c: layerSource(points) }, {}, { maxItems: 4999 }).catch((e) => e);
    expect(streamed).toBeInstanceOf(StepError);
    expect([streamed.stepId, streamed.cause.limit]).toEqual([inMemory.stepId, inMemory.cause.limit]);
    expect([streamed.stepId, streamed.cause.limit]).toEqual(["f", "rows 4,999"]);
    await expect(runFlow(holding, { c: layerSource(points) }, {}, { maxItems: 5000 })).resolves.toHaveLength(1);
  });

  it("previews (resultHead): each result read from the file is its first items in the layer's order and its count, never held whole", async () => {
    // Positions as a layer file gives them, the file in another order (as a Hilbert sort would).
    const points = Array.from({ length: 5000 }, (_, i) => pt(i / 1000, 0, { i }));
    points.forEach((p, i) => setItemPosition(p, i));
    const file = [...points].reverse();
    const preview = mustValidate({
      inputs: [{ name: "c", kind: "layer" }],
      steps: [
        { id: "f", type: "filter", source: "c", where: [">=", ["get", "i"], 10] },
        { id: "s", type: "select", source: "f", fields: ["i"] },
        { id: "a", type: "aggregate", source: "s", aggregations: [{ op: "count", as: "n" }] },
      ],
      results: [
        { key: "f", kind: "layer", from: "f" },
        { key: "s", kind: "layer", from: "s" },
        { key: "a", kind: "table", from: "a" },
      ],
    });
    // Whole, every result holds 4,990 items: over a limit of 4,000 the run fails; as heads it holds.
    await expect(runFlow(preview, { c: layerSource(file) }, {}, { maxItems: 4000 })).rejects.toBeInstanceOf(StepError);
    const [f, s, a] = await runFlow(preview, { c: layerSource(file) }, {}, { maxItems: 4000, resultHead: 3 });
    const props = (r: typeof f) => (r!.kind === "layer" ? r!.data.features.map((x) => x.properties) : tableRows(r!.data));
    expect([f!.count, s!.count]).toEqual([4990, 4990]);
    expect(props(f)).toEqual([{ i: 10 }, { i: 11 }, { i: 12 }]);
    expect(props(s)).toEqual([{ i: 10 }, { i: 11 }, { i: 12 }]);
    // A result in memory (the aggregate's one row) is returned whole, without a count.
    expect(a!.count).toBeUndefined();
    expect(props(a)).toEqual([{ n: 4990 }]);
  });

  it("restores the layer's order for any positions: small or past 2^53 / n, equal ones as read", async () => {
    const flow = mustValidate({
      inputs: [{ name: "c", kind: "layer" }],
      steps: [{ id: "s", type: "select", source: "c", fields: ["i"] }],
      results: [{ key: "s", kind: "layer", from: "s" }],
    });
    const order = async (positions: number[]) => {
      const points = positions.map((p, i) => pt(0, 0, { i }));
      points.forEach((f, i) => setItemPosition(f, positions[i]!));
      const [s] = await runFlow(flow, { c: layerSource(points) }, {});
      return s!.kind === "layer" ? s!.data.features.map((f) => f.properties!.i) : [];
    };
    // (positions as file order gives them; expected: read indexes by position, ties as read)
    expect(await order([5, 3, 9, 3, 0])).toEqual([4, 1, 3, 0, 2]);
    const big = 2 ** 52;
    expect(await order([big + 4, big, big + 2, big])).toEqual([1, 3, 2, 0]);
  });

  it("gives the same results whether a layer's groups come held by column, as features, or both (a group of other features among points)", async () => {
    const flow = mustValidate({
      inputs: [{ name: "c", kind: "layer" }],
      steps: [
        { id: "f", type: "filter", source: "c", where: [">=", ["get", "i"], 3] },
        { id: "s", type: "select", source: "f", fields: ["i", { from: "i", as: "j" }] },
      ],
      results: [{ key: "s", kind: "layer", from: "s" }],
    });
    // file order is not layer order: positions run backwards
    const points = Array.from({ length: 50 }, (_, i) => pt(i, i, { i }));
    points.forEach((f, i) => setItemPosition(f, 100 - i));
    const run = async (source: TLayerSource, resultHead?: number) => (await runFlow(flow, { c: source }, {}, { resultHead }))[0]!;
    const expected = await run(layerSource(points, { groupSize: 10, byColumn: false }));
    expect(expected.kind === "layer" && expected.data.features.map((f) => f.properties!.i)).toEqual(Array.from({ length: 47 }, (_, k) => 49 - k));
    expect(await run(layerSource(points, { groupSize: 10 }))).toEqual(expected);
    // the third group is not plain points (one feature has an id): read as features, the others by column
    const mixed = points.map((f, i) => (i === 25 ? { ...f, id: "x" } : f));
    mixed.forEach((f, i) => setItemPosition(f, 100 - i));
    const withId = await run(layerSource(mixed, { groupSize: 10 }));
    expect(withId.kind === "layer" && withId.data.features.map((f) => [f.properties!.i, f.id])).toEqual(
      Array.from({ length: 47 }, (_, k) => [49 - k, 49 - k === 25 ? "x" : undefined]),
    );
    // a preview's head, in the layer's order
    const head = await run(layerSource(mixed, { groupSize: 10 }), 4);
    expect(head.kind === "layer" && [head.data.features.map((f) => f.properties!.i), head.count]).toEqual([[49, 48, 47, 46], 47]);
  });

  it("stops between groups when aborted, and lets a read error through as it is", async () => {
    const points = Array.from({ length: 5000 }, (_, i) => pt(0, 0, { i }));
    const flow = mustValidate({
      inputs: [{ name: "c", kind: "layer" }],
      steps: [{ id: "a", type: "aggregate", source: "c", aggregations: [{ op: "count", as: "n" }] }],
      results: [{ key: "r", kind: "table", from: "a" }],
    });
    const ac = new AbortController();
    const cancelled = layerSource(points, { onGroup: (k) => k === 2 && ac.abort() });
    await expect(runFlow(flow, { c: cancelled }, {}, { signal: ac.signal })).rejects.toMatchObject({ name: "AbortError" });
    const disk = new Error("the blob store went away");
    const failing: TLayerSource = {
      ...layerSource(points),
      async *batches() {
        yield points.slice(0, 1000);
        throw disk;
      },
    };
    await expect(runFlow(flow, { c: failing }, {})).rejects.toBe(disk);
  });

  it("reads a table file the same as a table in memory (filter, select, compute, aggregate, join)", async () => {
    const rows: TRow[] = Array.from({ length: 2500 }, (_, i) => ({ id: i, kind: i % 3 === 0 ? "a" : "b", lon: (i % 50) - 25, lat: (i % 40) - 20 }));
    const names: TRow[] = [
      { kind: "a", label: "Alpha" },
      { kind: "b", label: "Beta" },
    ];
    const doc = {
      inputs: [
        { name: "t", kind: "table" },
        { name: "names", kind: "table" },
      ],
      steps: [
        { id: "f", type: "filter", source: "t", where: [">", ["get", "lon"], 0] },
        { id: "c", type: "compute", source: "f", field: "twice", expression: ["*", 2, ["get", "id"]] },
        { id: "s", type: "select", source: "c", fields: ["kind", "twice", "lon", "lat"] },
        {
          id: "a",
          type: "aggregate",
          source: "s",
          group_by: ["kind"],
          aggregations: [
            { op: "count", as: "n" },
            { op: "sum", field: "twice", as: "sum" },
          ],
        },
        { id: "j", type: "join", left: "a", right: "names", left_field: "kind", right_field: "kind" },
        { id: "p", type: "points_from_rows", source: "f", lon: "lon", lat: "lat" },
      ],
      results: [
        { key: "j", kind: "table", from: "j" },
        { key: "c", kind: "table", from: "c" },
        { key: "p", kind: "layer", from: "p" },
      ],
    };
    const file = (list: TRow[], columns: string[]) => {
      const source: TLayerSource = {
        kind: "layer-source",
        of: "rows",
        itemCount: list.length,
        bbox: null,
        columns,
        async *batches() {
          for (let i = 0; i < list.length; i += 700) yield list.slice(i, i + 700);
        },
      };
      return source;
    };
    const table = (list: TRow[], columns: string[]) => tableFromRows(columns, list);
    const [j] = await sameResults(
      doc,
      { t: table(rows, ["id", "kind", "lon", "lat"]), names: table(names, ["kind", "label"]) },
      { t: file(rows, ["id", "kind", "lon", "lat"]), names: file(names, ["kind", "label"]) },
    );
    expect((j!.data as { columns: string[] }).columns).toEqual(["kind", "n", "sum", "label"]);
  });
});
