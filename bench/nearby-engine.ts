/**
 * Median engine time (wall and process CPU) of nearby-cities (5,000 caller rows, 30 km) run
 * in-process `RUNS` times (default 7) after one warm-up run, then the sha256 of every result of
 * nearby-cities and country-stats in every format of its kind (skipped with `NO_ENCODE=1`), to
 * compare two trees back to back: run it with the tree to measure as the working directory.
 */
import { createHash } from "node:crypto";
import { loadWorldCities, loadWorldCountries } from "@/lib/demo/real-data";
import { NEARBY_CITIES, POPULATION_BY_COUNTRY } from "@/lib/demo/flows";
import { validateFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import { applyParameterDefaults, callerDataToDataset } from "@/lib/flows/run-request";
import { runFlow } from "@/lib/engine/run-flow";
import { encodeResult } from "@/lib/formats/encode-result";
import { FORMATS_BY_KIND } from "@/lib/formats/registry";
import type { TEngineResult } from "@/lib/engine/types";
import { benchPlaces } from "./engine";

const N = Number(process.env.RUNS ?? 7);
const flowOf = (doc: unknown): TFlowVersion => {
  const r = validateFlowVersion(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.flow;
};
const cities = loadWorldCities();
const countries = loadWorldCountries();
const nc = flowOf(NEARBY_CITIES);
const places = callerDataToDataset({ rows: benchPlaces(cities.features) } as never)!;
const params = applyParameterDefaults(nc, { radius_km: 30 });
const times: number[] = [];
const cpu: number[] = [];
let results: TEngineResult[] = [];
for (let i = 0; i <= N; i++) {
  results = []; // the previous run's results are not held during this one
  const t = performance.now();
  const c = process.cpuUsage();
  results = await runFlow(nc, { places, cities }, params);
  const d = process.cpuUsage(c);
  if (i === 0) continue; // warm-up
  times.push(performance.now() - t);
  cpu.push((d.user + d.system) / 1000);
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
const med = (v: number[]) => +v[Math.floor(v.length / 2)]!.toFixed(1);
console.log(JSON.stringify({ median: med(times), min: +times[0]!.toFixed(1), cpuMedian: med(cpu), times: times.map((t) => +t.toFixed(0)) }));
if (process.env.NO_ENCODE) process.exit(0);
const cs = flowOf(POPULATION_BY_COUNTRY);
const csResults = await runFlow(cs, { cities, countries }, applyParameterDefaults(cs, {}));
for (const [name, rs] of [
  ["nearby", results],
  ["country-stats", csResults],
] as const) {
  for (const r of rs) {
    for (const format of FORMATS_BY_KIND[r.kind]) {
      const e = await encodeResult(r, format);
      console.log(name, r.key, format, e.rowCount ?? e.featureCount, createHash("sha256").update(e.body).digest("hex"));
    }
  }
}
