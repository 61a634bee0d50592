/**
 * Run by bench/engine.ts in a fresh process (runIsolated) to measure peak memory of the
 * engine and the writers alone: loads the demo layers, runs country-stats and nearby-cities
 * (5,000 rows, 30 km) and encodes every result in both formats of its kind, like the worker.
 * Prints one JSON line `{ms}`.
 */
import { loadWorldCities, loadWorldCountries } from "@/lib/demo/real-data";
import { NEARBY_CITIES, POPULATION_BY_COUNTRY } from "@/lib/demo/flows";
import { validateFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import { applyParameterDefaults } from "@/lib/flows/run-request";
import { runFlow } from "@/lib/engine/run-flow";
import { encodeResult } from "@/lib/formats/encode-result";
import { FORMATS_BY_KIND } from "@/lib/formats/registry";
import type { TEngineResult } from "@/lib/engine/types";
import { tableFromRows } from "@/lib/steps/dataset";
import { benchPlaces } from "./engine";

function flowOf(doc: unknown): TFlowVersion {
  const r = validateFlowVersion(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.flow;
}

async function encodeAll(results: TEngineResult[]): Promise<void> {
  for (const r of results) for (const format of FORMATS_BY_KIND[r.kind]) await encodeResult(r, format);
}

const t0 = performance.now();
const cities = loadWorldCities();
const countries = loadWorldCountries();
const cs = flowOf(POPULATION_BY_COUNTRY);
await encodeAll(await runFlow(cs, { cities, countries }, applyParameterDefaults(cs, {})));
const nc = flowOf(NEARBY_CITIES);
const places = tableFromRows(["id", "lon", "lat"], benchPlaces(cities.features));
await encodeAll(await runFlow(nc, { places, cities }, applyParameterDefaults(nc, { radius_km: 30 })));
console.log(JSON.stringify({ ms: performance.now() - t0 }));
