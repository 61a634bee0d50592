/**
 * Run by bench/engine.ts in a fresh process (runIsolated), so that nothing the bench process
 * did before (seeding the database, starting the app) weighs on what is measured. Loads the
 * demo layers, then, by its one argument:
 *
 * - `memory` (default): runs country-stats and nearby-cities (5,000 rows, 30 km) once and
 *   encodes every result in both formats of its kind, like the worker; the caller reads the
 *   peak memory. Prints `{ms}`.
 * - `timings`: the engine alone (runFlow, indexes warm as in a long-lived run process) for both
 *   flows, `runs` times each after one warm-up, and the GeoParquet and GeoJSON writers over
 *   the 135,233 cities, 3 times each. Prints `TEngineTimings` (durations in ms, sizes in bytes).
 */
import { loadWorldCities, loadWorldCountries } from "@/lib/demo/real-data";
import { NEARBY_CITIES, POPULATION_BY_COUNTRY } from "@/lib/demo/flows";
import { validateFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import { applyParameterDefaults } from "@/lib/flows/run-request";
import { runFlow } from "@/lib/engine/run-flow";
import { encodeResult } from "@/lib/formats/encode-result";
import { encodeGeoJson } from "@/lib/formats/geojson/write";
import { encodeGeoParquet } from "@/lib/formats/geoparquet/write";
import { FORMATS_BY_KIND } from "@/lib/formats/registry";
import type { TEngineResult, TTable } from "@/lib/engine/types";
import { tableFromRows } from "@/lib/steps/dataset";
import { benchPlaces } from "./engine";
import { timeRuns } from "./harness";

export interface TEngineTimings {
  countryStatsMs: number[];
  nearbyMs: number[];
  nearbyPairs: number;
  geoParquetMs: number[];
  geoParquetBytes: number;
  geoJsonMs: number[];
  geoJsonBytes: number;
}

function flowOf(doc: unknown): TFlowVersion {
  const r = validateFlowVersion(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.flow;
}

async function encodeAll(results: TEngineResult[]): Promise<void> {
  for (const r of results) for (const format of FORMATS_BY_KIND[r.kind]) await encodeResult(r, format);
}

const [mode = "memory", runs = "5"] = process.argv.slice(2);
const t0 = performance.now();
const cities = loadWorldCities();
const countries = loadWorldCountries();
const cs = flowOf(POPULATION_BY_COUNTRY);
const csParams = applyParameterDefaults(cs, {});
const nc = flowOf(NEARBY_CITIES);
const ncParams = applyParameterDefaults(nc, { radius_km: 30 });
const places = tableFromRows(["id", "lon", "lat"], benchPlaces(cities.features));

if (mode === "timings") {
  const out: TEngineTimings = { countryStatsMs: [], nearbyMs: [], nearbyPairs: 0, geoParquetMs: [], geoParquetBytes: 0, geoJsonMs: [], geoJsonBytes: 0 };
  out.countryStatsMs = await timeRuns(() => runFlow(cs, { cities, countries }, csParams), Number(runs));
  out.nearbyMs = await timeRuns(async () => {
    const r = await runFlow(nc, { places, cities }, ncParams);
    out.nearbyPairs = (r[1]!.data as TTable).length;
  }, Number(runs));
  out.geoParquetMs = await timeRuns(async () => (out.geoParquetBytes = (await encodeGeoParquet(cities)).body.byteLength), 3);
  out.geoJsonMs = await timeRuns(async () => (out.geoJsonBytes = (await encodeGeoJson(cities)).body.byteLength), 3);
  console.log(JSON.stringify(out));
} else {
  await encodeAll(await runFlow(cs, { cities, countries }, csParams));
  await encodeAll(await runFlow(nc, { places, cities }, ncParams));
  console.log(JSON.stringify({ ms: performance.now() - t0 }));
}
