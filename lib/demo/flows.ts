/**
 * Flow version documents of the demo flows (validated in flows.test.ts). Data they expect:
 * a cities layer (Point features with `geonameid`, `name`, `country`, `population`) and a
 * countries layer ((Multi)Polygon features with `name`), see lib/demo/real-data.ts; the
 * inputs declare that geometry (`"geometry": "point"` / `"polygon"`), so a layer of the other
 * kind is refused with 422 and the docs, tools and Try it offer the layers that fit.
 *
 * 1. Cities in area — cities inside `area` (boundary excluded) with population >=
 *    `min_population`; results `cities` (layer: geonameid, name, country, population) and
 *    `summary` (table, one row: city_count, total_population).
 * 2. Population by country — per country the number and population of cities with population
 *    >= `min_population`; results `countries` (layer: name, city_count, city_population, 0 when
 *    none) and `ranking` (table: the `top` countries by city_population, desc; rank, name,
 *    city_count, city_population).
 * 3. Nearby cities — for caller places (rows id, lon, lat), cities with population >=
 *    `min_population` within `radius_km` (haversine, R = 6371.0088 km): results `places` (layer:
 *    id, city_count, population_within, nearest_city, nearest_km; nulls when none) and
 *    `matches` (table: place_id, geonameid, name, country, population, distance_km; per place
 *    nearest first).
 */
import type { TFlowVersionInput } from "@/lib/flows/definition";

type TDoc = TFlowVersionInput;

/** The properties a cities layer's features have (typed, so results keep their types on every run). */
const CITY_COLUMNS: { name: string; type: "integer" | "string"; minimum?: number; description?: string }[] = [
  { name: "geonameid", type: "integer", description: "GeoNames id" },
  { name: "name", type: "string" },
  { name: "country", type: "string", description: "ISO 3166-1 alpha-2 code" },
  { name: "population", type: "integer", minimum: 0 },
];

const minPopulation = {
  type: "integer",
  name: "min_population",
  minimum: 0,
  default: 0,
  description: "Only cities with at least this population",
} as const;

export const CITIES_IN_AREA = {
  description: "Cities inside an area, with a summary",
  inputs: [
    { name: "cities", kind: "layer", description: "Point features with geonameid, name, country, population", geometry: "point", columns: CITY_COLUMNS },
    { name: "area", kind: "area", description: "The polygon to search in" },
  ],
  parameters: [minPopulation],
  steps: [
    { id: "big", type: "filter", source: "cities", where: [">=", ["to-number", ["get", "population"], 0], ["var", "min_population"]] },
    // "intersects" keeps cities on the area's edge (GeoNames positions are rounded to
    // minutes, so many fall exactly on a drawn line); spatial_join counts them the same way.
    { id: "inside", type: "spatial_filter", source: "big", by: "area", predicate: "intersects" },
    { id: "fields", type: "select", source: "inside", fields: ["geonameid", "name", "country", "population"] },
    {
      id: "totals",
      type: "aggregate",
      source: "fields",
      aggregations: [
        { op: "count", as: "city_count" },
        { op: "sum", field: "population", as: "total_population" },
      ],
    },
  ],
  results: [
    { key: "cities", kind: "layer", from: "fields", description: "The cities inside the area" },
    { key: "summary", kind: "table", from: "totals", description: "One row: city_count, total_population" },
  ],
} as const satisfies TDoc;

export const POPULATION_BY_COUNTRY = {
  description: "City count and city population per country, and a top-N ranking",
  inputs: [
    { name: "cities", kind: "layer", description: "Point features with population", geometry: "point", columns: CITY_COLUMNS },
    { name: "countries", kind: "layer", description: "(Multi)Polygon features with name", geometry: "polygon", columns: [{ name: "name", type: "string" }] },
  ],
  parameters: [minPopulation, { name: "top", type: "integer", minimum: 1, maximum: 250, default: 10, description: "Number of countries in the ranking" }],
  steps: [
    { id: "big", type: "filter", source: "cities", where: [">=", ["to-number", ["get", "population"], 0], ["var", "min_population"]] },
    {
      id: "joined",
      type: "spatial_join",
      points: "big",
      polygons: "countries",
      aggregations: [
        { op: "count", as: "city_count" },
        { op: "sum", field: "population", as: "city_population" },
      ],
    },
    { id: "stats", type: "select", source: "joined", fields: ["name", "city_count", "city_population"] },
    { id: "sorted", type: "sort", source: "stats", field: "city_population", order: "desc" },
    { id: "top_n", type: "limit", source: "sorted", n: { param: "top" } },
    { id: "ranked", type: "rank", source: "top_n", field: "rank" },
    { id: "ranking", type: "to_table", source: "ranked", columns: ["rank", "name", "city_count", "city_population"] },
  ],
  results: [
    { key: "countries", kind: "layer", from: "stats", description: "Every country with city_count and city_population" },
    { key: "ranking", kind: "table", from: "ranking", description: "The top countries by city population" },
  ],
} as const satisfies TDoc;

export const NEARBY_CITIES = {
  description: "Cities near each of the caller's places",
  inputs: [
    {
      name: "places",
      kind: "table",
      description: "Rows with id, lon, lat (WGS 84 degrees)",
      columns: [
        { name: "id", type: "any", required: true, description: "Your id of the place (text or number), repeated in the results" },
        { name: "lon", type: "number", required: true, minimum: -180, maximum: 180, description: "Longitude, WGS 84 degrees" },
        { name: "lat", type: "number", required: true, minimum: -90, maximum: 90, description: "Latitude, WGS 84 degrees" },
      ],
    },
    { name: "cities", kind: "layer", description: "Point features with geonameid, name, country, population", geometry: "point", columns: CITY_COLUMNS },
  ],
  parameters: [{ name: "radius_km", type: "number", exclusiveMinimum: 0, maximum: 500, default: 25, description: "Search radius in km" }, minPopulation],
  steps: [
    { id: "points", type: "points_from_rows", source: "places", lon: "lon", lat: "lat" },
    { id: "big", type: "filter", source: "cities", where: [">=", ["to-number", ["get", "population"], 0], ["var", "min_population"]] },
    {
      id: "counted",
      type: "within_distance",
      source: "points",
      target: "big",
      max_km: { param: "radius_km" },
      aggregations: [
        { op: "count", as: "city_count" },
        { op: "sum", field: "population", as: "population_within" },
      ],
    },
    {
      id: "with_nearest",
      type: "nearest",
      source: "counted",
      target: "big",
      max_km: { param: "radius_km" },
      fields: [{ from: "name", as: "nearest_city" }],
      distance_field: "nearest_km",
    },
    { id: "place_fields", type: "select", source: "with_nearest", fields: ["id", "city_count", "population_within", "nearest_city", "nearest_km"] },
    {
      id: "pairs",
      type: "distance_pairs",
      source: "points",
      target: "big",
      max_km: { param: "radius_km" },
      source_fields: [{ from: "id", as: "place_id" }],
      target_fields: ["geonameid", "name", "country", "population"],
      distance_field: "distance_km",
    },
  ],
  results: [
    { key: "places", kind: "layer", from: "place_fields", description: "A point per place with the cities around it" },
    { key: "matches", kind: "table", from: "pairs", description: "Every city within the radius of a place" },
  ],
} as const satisfies TDoc;

export interface TDemoFlow {
  flowName: string;
  apiName: string;
  apiSlug: string;
  description: string;
  definition: unknown;
}

/** The demo flows as the seed publishes them: the flow and its API share a name. */
export const DEMO_FLOWS: readonly TDemoFlow[] = (
  [
    ["Cities in area", "cities-in-area", CITIES_IN_AREA],
    ["Population by country", "country-stats", POPULATION_BY_COUNTRY],
    ["Nearby cities", "nearby-cities", NEARBY_CITIES],
  ] as const
).map(([name, apiSlug, definition]) => ({ flowName: name, apiName: name, apiSlug, description: definition.description, definition }));
