/**
 * Data shapes that flow between steps (lib/steps) and out of the engine (lib/engine). The
 * result writers (`lib/formats`), the worker and the public API read them through
 * lib/engine/types.ts.
 *
 * - A layer is a list of RFC 7946 GeoJSON features (WGS 84 lon/lat, `geometry` may be null).
 * - A table is a list of plain rows (objects of JSON scalars) with an ordered column list.
 * - An area is one GeoJSON Polygon geometry.
 */
import type { Feature, Geometry, Polygon } from "geojson";

/** A JSON scalar as it may appear in a row or in feature properties. */
export type TScalar = string | number | boolean | null;

/** One feature: geometry may be null (RFC 7946 §3.2), properties always an object. */
export type TFeature = Feature<Geometry | null, Record<string, unknown>>;

/** One table row. */
export type TRow = Record<string, unknown>;

/** A collection of features (a layer input, a layer step output, a layer result). */
export interface TFeatureSet {
  kind: "features";
  features: TFeature[];
}

/** A table (a table input, a table step output, a table result). `columns` fixes the order. */
export interface TTable {
  kind: "rows";
  columns: string[];
  rows: TRow[];
}

/** An area input: a single polygon. */
export interface TArea {
  kind: "area";
  geometry: Polygon;
}

export type TDataset = TFeatureSet | TTable | TArea;
