/**
 * The basemap of every map in the app: Natural Earth 1:110m countries (`world-atlas`
 * `countries-110m.json`, public domain), the package the demo's countries come from, as one
 * RFC 7946 FeatureCollection of 177 (Multi)Polygons with property `name`, cut at the
 * antimeridian like the demo's countries (lib/demo/real-data.ts) so MapLibre draws no streaks
 * across the map. Positions are rounded to 3 decimals (about 100 m, well under the 1:110m
 * detail): about 190 KB of JSON, 65 KB gzipped. Read once per process from the installed
 * package; nothing is downloaded.
 */
import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { FeatureCollection } from "geojson";
import { countriesFromTopology, type TCountriesTopology } from "@/lib/demo/real-data";

let cached: Promise<string> | null = null;

/** The basemap countries as GeoJSON text (a FeatureCollection), computed once per process. */
export function basemapCountriesJson(): Promise<string> {
  cached ??= (async () => {
    const text = await readFile(path.join(process.cwd(), "node_modules/world-atlas/countries-110m.json"), "utf8");
    const { features } = countriesFromTopology(JSON.parse(text) as TCountriesTopology);
    const fc: FeatureCollection = {
      type: "FeatureCollection",
      features: features.map((f) => ({ type: "Feature", properties: f.properties, geometry: f.geometry! })),
    };
    return JSON.stringify(fc, (_key, v: unknown) => (typeof v === "number" ? Math.round(v * 1e3) / 1e3 : v));
  })();
  cached.catch(() => (cached = null));
  return cached;
}
